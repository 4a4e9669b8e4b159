//! The smoothing numerics of content code blurring, free of HTML: a 0/1 vector blurred by
//! `passes` passes of a truncated Gaussian (renormalised at the ends) or a box kernel, exactly
//! (within 1e-9 of the textbook formula, tested below) and fast: chunked, vectorisable interior
//! sums, O(n) box passes by block prefix sums, and for long pages the composite-kernel jump sum
//! of [`Blur::blur_by_jumps`]. `ccb/mod.rs` builds the vector and reads the result.

use std::cell::RefCell;

/// A configured blur: range, kernel and passes, with the kernel weights built once per setting.
pub struct Blur {
    r: usize,
    sigma: f64,
    passes: usize,
    /// The one-pass Gaussian weights for the configured `r`, built once per setting, not per
    /// page; `None` selects the box kernel.
    kernel: Option<Kernel>,
    /// Prefix sums of the interior kernel of all `passes` Gaussian passes composed (radius
    /// `passes * r`), for [`Blur::blur_by_jumps`]; empty for the box kernel.
    composite: Vec<f64>,
}

impl Blur {
    /// A blur of range `r` (at least 1), Gaussian sigma `sigma_ratio * r` (or the box kernel),
    /// applied `passes` times.
    pub fn new(r: usize, sigma_ratio: f64, passes: usize, box_kernel: bool) -> Blur {
        let sigma = (sigma_ratio * r as f64).max(1e-9);
        let kernel = (!box_kernel).then(|| Kernel::new(r, sigma));
        let composite = kernel.as_ref().map_or_else(Vec::new, |k| composite_prefix(k, passes));
        Blur { r, sigma, passes, kernel, composite }
    }

    /// Blurs `s.a` in place (`passes` passes), using the other buffers of `s`.
    pub fn run(&self, s: &mut Scratch) {
        let n = s.a.len();
        if n == 0 {
            return;
        }
        match &self.kernel {
            None => {
                // No neighbour is further than n - 1 away: a wider kernel gives the same values.
                let r = self.r.min(n - 1);
                s.b.clear();
                s.b.resize(n, 0.0);
                for _ in 0..self.passes {
                    box_pass(&s.a, &mut s.b, r, &mut s.p);
                    std::mem::swap(&mut s.a, &mut s.b);
                }
            }
            Some(k) if n > 4 * self.passes * self.r => self.blur_by_jumps(s, k),
            Some(_) => self.gaussian_passes(&mut s.a, &mut s.b),
        }
    }

    /// `passes` direct Gaussian passes over `a` (result in `a`), O(n r) per pass.
    fn gaussian_passes(&self, a: &mut Vec<f64>, b: &mut Vec<f64>) {
        let n = a.len();
        b.clear();
        b.resize(n, 0.0);
        // A page shorter than the range: no neighbour lies further than n - 1 away, so the
        // kernel is cut there (and renormalised for the interior).
        let short;
        let k = match &self.kernel {
            Some(k) if self.r < n => k,
            _ => {
                short = Kernel::new(self.r.min(n - 1), self.sigma);
                &short
            }
        };
        for _ in 0..self.passes {
            gaussian_pass(a, b, k);
            std::mem::swap(a, b);
        }
    }

    /// The same blur as [`Blur::gaussian_passes`] in O(n + jumps × passes × r) instead of
    /// O(n × passes × r), for a 0/1 vector longer than `4 R` (`R = passes × r`).
    ///
    /// Away from the page's ends (`R ≤ i < n − R`) the passes never meet an edge, so their
    /// composition is one convolution with the composite kernel `K` of radius `R`. Writing the 0/1
    /// vector as a sum of steps (+1 where a run of ones starts, −1 where it ends), the output is
    /// `x[i − R − 1] + Σ_{jumps j within ±R of i} sign_j · C[i − j + R]` with `C` the prefix
    /// sums of `K`: each jump adds a slice of `C`, and pages have far fewer code/content jumps
    /// than characters. The `R` outputs at each end come from the direct passes over the first
    /// and last `2 R` elements, which is exact there. Equal to the direct passes within 1e-9 (tested).
    fn blur_by_jumps(&self, s: &mut Scratch, k: &Kernel) {
        let n = s.a.len();
        let big = self.passes * self.r;
        let c = &self.composite;
        s.b.clear();
        s.b.resize(n, 0.0);
        let (x, y) = (&s.a, &mut s.b);
        for i in big + 1..n - big {
            y[i] = x[i - big - 1];
        }
        let mut prev = 0.0;
        for (j, &v) in x.iter().enumerate() {
            #[allow(clippy::float_cmp)] // the vector holds exact 0.0 and 1.0
            if v == prev {
                continue;
            }
            let sign = v - prev;
            prev = v;
            let (lo, hi) = ((2 * big).saturating_sub(j), (2 * big).min(n - 1 - j));
            if lo <= hi {
                let start = j + lo - big;
                for (o, &ck) in y[start..=start + (hi - lo)].iter_mut().zip(&c[lo..=hi]) {
                    *o += sign * ck;
                }
            }
        }
        // The two ends, by direct passes over the first (last, reversed: the kernel is symmetric)
        // 2R elements; pass k needs outputs 0..2R - k r, the window of the last reaching R.
        for left in [true, false] {
            s.e.clear();
            if left {
                s.e.extend_from_slice(&s.a[..2 * big]);
            } else {
                s.e.extend(s.a[n - 2 * big..].iter().rev());
            }
            s.f.clear();
            s.f.resize(2 * big, 0.0);
            for pass in 1..=self.passes {
                gaussian_prefix_pass(&s.e, &mut s.f, k, 2 * big - pass * self.r);
                std::mem::swap(&mut s.e, &mut s.f);
            }
            if left {
                s.b[..big].copy_from_slice(&s.e[..big]);
            } else {
                for (o, &x) in s.b[n - big..].iter_mut().rev().zip(&s.e[..big]) {
                    *o = x;
                }
            }
        }
        std::mem::swap(&mut s.a, &mut s.b);
    }
}

/// Prefix sums of the interior kernel of `passes` Gaussian passes (the normalised one-pass
/// kernel convolved with itself `passes` times; radius `passes * r`), see [`Blur::blur_by_jumps`].
fn composite_prefix(k: &Kernel, passes: usize) -> Vec<f64> {
    let r = k.w.len() - 1;
    let one: Vec<f64> = (0..=2 * r).map(|q| k.wn[q.abs_diff(r)]).collect();
    let mut kernel = one.clone();
    for _ in 1..passes {
        let mut next = vec![0.0; kernel.len() + 2 * r];
        for (a, &ka) in kernel.iter().enumerate() {
            for (o, &kb) in next[a..].iter_mut().zip(&one) {
                *o += ka * kb;
            }
        }
        kernel = next;
    }
    let mut acc = 0.0;
    kernel
        .iter()
        .map(|&x| {
            acc += x;
            acc
        })
        .collect()
}

/// Truncated Gaussian weights: raw `w[d]`, their prefix sums `cw[d]` (the edge normalisers)
/// and `wn[d]` normalised for the interior, for `d = 0..=r`.
struct Kernel {
    w: Vec<f64>,
    cw: Vec<f64>,
    wn: Vec<f64>,
}

impl Kernel {
    fn new(r: usize, sigma: f64) -> Kernel {
        let s2 = 2.0 * sigma * sigma;
        let w: Vec<f64> = (0..=r).map(|d| (-((d * d) as f64) / s2).exp()).collect();
        let mut acc = 0.0;
        let cw: Vec<f64> = w
            .iter()
            .map(|&x| {
                acc += x;
                acc
            })
            .collect();
        let full = 2.0 * cw[r] - w[0];
        let wn = w.iter().map(|&x| x / full).collect();
        Kernel { w, cw, wn }
    }
}

/// Interior outputs per chunk: the chunk's accumulators stay in L1 across the `r` weight sweeps.
const CHUNK: usize = 1024;

/// One truncated Gaussian pass, renormalised at the edges. Requires `r <= n - 1`.
fn gaussian_pass(src: &[f64], dst: &mut [f64], k: &Kernel) {
    let n = src.len();
    let r = k.w.len() - 1;
    if n <= 2 * r {
        edges(src, dst, k, 0, n);
        return;
    }
    edges(src, dst, k, 0, r);
    edges(src, dst, k, n - r, n);
    interior(src, dst, k, r, n - r);
}

/// Outputs `0..len` of one pass over `src`, which must extend at least `r` past `len`: the
/// left end of a page, for [`Blur::blur_by_jumps`].
fn gaussian_prefix_pass(src: &[f64], dst: &mut [f64], k: &Kernel, len: usize) {
    let r = k.w.len() - 1;
    debug_assert!(len + r <= src.len());
    edges(src, dst, k, 0, r.min(len));
    if r < len {
        interior(src, dst, k, r, len);
    }
}

thread_local! {
    static PADDED: RefCell<(Vec<f64>, Vec<f64>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Outputs `start..end` whose window may be cut by the ends of `src`: the numerator is the
/// interior sum over a copy padded with zeros (vectorised, like [`interior`]), the normaliser the
/// weights that fall inside the page.
fn edges(src: &[f64], dst: &mut [f64], k: &Kernel, start: usize, end: usize) {
    if start >= end {
        return;
    }
    let (n, r) = (src.len(), k.w.len() - 1);
    let (a, b) = (start.saturating_sub(r), (end + r).min(n));
    let full = 2.0 * k.cw[r] - k.w[0];
    PADDED.with(|cell| {
        let (z, out) = &mut *cell.borrow_mut();
        z.clear();
        z.resize(r, 0.0);
        z.extend_from_slice(&src[a..b]);
        z.resize(z.len() + r, 0.0);
        out.clear();
        out.resize(z.len(), 0.0);
        interior(z, out, k, start - a + r, end - a + r);
        for i in start..end {
            let (left, right) = (i.min(r), (n - 1 - i).min(r));
            dst[i] = out[i - a + r] * full / (k.cw[left] + k.cw[right] - k.w[0]);
        }
    });
}

/// Outputs `from..to` whose full window lies inside `src` (`r <= from`, `to + r <= n`): the
/// fixed normaliser is folded into `wn`. In chunks, distance by distance over contiguous slices:
/// independent lanes that the compiler vectorises.
fn interior(src: &[f64], dst: &mut [f64], k: &Kernel, from: usize, to: usize) {
    let r = k.w.len() - 1;
    let mut start = from;
    while start < to {
        let end = (start + CHUNK).min(to);
        let out = &mut dst[start..end];
        let len = out.len();
        for (o, &x) in out.iter_mut().zip(&src[start..end]) {
            *o = k.wn[0] * x;
        }
        // Eight weights per sweep: one load and store of the accumulator per eight distances.
        let mut d = 1;
        while d + 7 <= r {
            let w = &k.wn[d..d + 8];
            let lo: [&[f64]; 8] = std::array::from_fn(|m| &src[start - d - m..][..len]);
            let hi: [&[f64]; 8] = std::array::from_fn(|m| &src[start + d + m..][..len]);
            for (j, o) in out.iter_mut().enumerate() {
                *o += (w[0] * (lo[0][j] + hi[0][j]) + w[1] * (lo[1][j] + hi[1][j]))
                    + (w[2] * (lo[2][j] + hi[2][j]) + w[3] * (lo[3][j] + hi[3][j]))
                    + ((w[4] * (lo[4][j] + hi[4][j]) + w[5] * (lo[5][j] + hi[5][j]))
                        + (w[6] * (lo[6][j] + hi[6][j]) + w[7] * (lo[7][j] + hi[7][j])));
            }
            d += 8;
        }
        for d in d..=r {
            let wd = k.wn[d];
            let (lo, hi) = (&src[start - d..start - d + len], &src[start + d..start + d + len]);
            for ((o, &a), &b) in out.iter_mut().zip(lo).zip(hi) {
                *o += wd * (a + b);
            }
        }
        start = end;
    }
}

/// Outputs per box block; the block's prefix sums stay small, so differences are exact to ~1e-12.
const BOX_BLOCK: usize = 4096;

/// One box pass (moving average of radius `r`, renormalised at the edges) by prefix sums, O(n)
/// whatever `r`. The prefix sums restart at every block of outputs (over the block plus `r` on
/// each side) so they never grow with the page and the window sums keep full precision.
fn box_pass(src: &[f64], dst: &mut [f64], r: usize, p: &mut Vec<f64>) {
    let n = src.len();
    let mut start = 0;
    while start < n {
        let end = (start + BOX_BLOCK).min(n);
        let base = start.saturating_sub(r);
        let top = (end + r).min(n);
        p.clear();
        p.push(0.0);
        let mut acc = 0.0;
        p.extend(src[base..top].iter().map(|&x| {
            acc += x;
            acc
        }));
        // Window of i: [i - r, i + r] ∩ [0, n), i.e. p[hi - base] - p[lo - base].
        let inner_lo = start.max(r);
        let inner_hi = end.min(n.saturating_sub(r));
        let sum = |i: usize| {
            let (lo, hi) = (i.saturating_sub(r), (i + r + 1).min(n));
            (p[hi - base] - p[lo - base]) / (hi - lo) as f64
        };
        if inner_lo < inner_hi {
            for i in (start..inner_lo).chain(inner_hi..end) {
                dst[i] = sum(i);
            }
            let inv = 1.0 / (2 * r + 1) as f64;
            let len = inner_hi - inner_lo;
            let (hi, lo) = (&p[inner_lo + r + 1 - base..][..len], &p[inner_lo - r - base..][..len]);
            for ((o, &h), &l) in dst[inner_lo..inner_hi].iter_mut().zip(hi).zip(lo) {
                *o = (h - l) * inv;
            }
        } else {
            for (o, i) in dst[start..end].iter_mut().zip(start..) {
                *o = sum(i);
            }
        }
        start = end;
    }
}

/// Per-thread buffers reused across extract calls: the vector and its blur (`a`, `b`), the box
/// prefix sums (`p`) and the page ends blurred directly by [`Blur::blur_by_jumps`] (`e`, `f`).
#[derive(Default)]
pub struct Scratch {
    /// The vector to blur; holds the result after [`Blur::run`].
    pub a: Vec<f64>,
    /// Second buffer of the passes.
    pub b: Vec<f64>,
    p: Vec<f64>,
    e: Vec<f64>,
    f: Vec<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §1.3 term by term: every output sums its clipped window with weight `w(|d|)`.
    fn blur_direct(v: &[f64], r: usize, w: impl Fn(usize) -> f64, passes: usize) -> Vec<f64> {
        let mut cur = v.to_vec();
        for _ in 0..passes {
            let n = cur.len();
            cur = (0..n)
                .map(|i| {
                    let (mut num, mut den) = (0.0, 0.0);
                    let (lo, hi) = (i.saturating_sub(r), (i + r).min(n - 1));
                    for (j, &x) in cur.iter().enumerate().take(hi + 1).skip(lo) {
                        let d = i.abs_diff(j);
                        num += w(d) * x;
                        den += w(d);
                    }
                    num / den
                })
                .collect();
        }
        cur
    }

    /// A code/content vector with runs of varied lengths, as pages have.
    fn runs(n: usize) -> Vec<f64> {
        let mut x = 12345u64;
        let mut v = Vec::with_capacity(n);
        let mut value = 0.0;
        while v.len() < n {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let len = 1 + (x >> 33) as usize % 60;
            v.extend(std::iter::repeat_n(value, len.min(n - v.len())));
            value = 1.0 - value;
        }
        v
    }

    fn check(n: usize, r: usize, passes: usize, sigma_ratio: f64) {
        let v = runs(n);
        for box_kernel in [false, true] {
            let blur = Blur::new(r, sigma_ratio, passes, box_kernel);
            let mut s = Scratch { a: v.clone(), ..Default::default() };
            blur.run(&mut s);
            let sigma = blur.sigma;
            let direct = if box_kernel {
                blur_direct(&v, r, |_| 1.0, passes)
            } else {
                blur_direct(&v, r, |d| (-((d * d) as f64) / (2.0 * sigma * sigma)).exp(), passes)
            };
            assert_eq!(s.a.len(), direct.len());
            for (i, (a, b)) in s.a.iter().zip(&direct).enumerate() {
                assert!((a - b).abs() < 1e-9, "n={n} r={r} passes={passes} box={box_kernel} i={i}: {a} vs {b}");
                assert!((-1e-12..=1.0 + 1e-12).contains(a));
            }
        }
    }

    #[test]
    fn fast_blurs_equal_the_direct_formula() {
        for n in [0usize, 1, 2, 3, 17, 81, 82, 500, 2100] {
            for r in [1usize, 2, 5, 13, 40, 300] {
                for passes in [1usize, 3] {
                    check(n, r, passes, 1.0 / 3.0);
                }
            }
        }
        // Several blocks and chunks, ranges wider than half the page, other sigmas and passes.
        check(9000, 300, 2, 1.0 / 3.0);
        check(12_345, 40, 3, 1.0 / 3.0);
        check(12_345, 7, 20, 0.1);
        check(700, 300, 4, 1.0);
        check(600, 299, 2, 0.5);
        check(5000, 1, 5, 0.1);
        // Long enough for the jump path (n > 4 * passes * r), with all-one and all-zero stretches.
        check(40_000, 300, 3, 1.0 / 3.0);
        check(3_700, 300, 3, 1.0 / 3.0);
        check(20_000, 25, 1, 1.0 / 3.0);
        check(20_000, 13, 7, 0.2);
        let mut v = vec![1.0; 5000];
        v.extend(runs(8000));
        v.extend(vec![0.0; 5000]);
        for (r, passes) in [(40, 3), (200, 3), (5, 2)] {
            let blur = Blur::new(r, 1.0 / 3.0, passes, false);
            let mut s = Scratch { a: v.clone(), ..Default::default() };
            blur.run(&mut s);
            let sigma = blur.sigma;
            let direct = blur_direct(&v, r, |d| (-((d * d) as f64) / (2.0 * sigma * sigma)).exp(), passes);
            for (i, (a, b)) in s.a.iter().zip(&direct).enumerate() {
                assert!((a - b).abs() < 1e-9, "r={r} i={i}: {a} vs {b}");
            }
        }
    }
}

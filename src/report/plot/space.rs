//! The explored parameter space: one panel per pair of tuned parameters (or parameter vs
//! fitness when only one is tuned), every evaluated individual a point shaded by fitness or by
//! generation (Gottron 2009, Figure 4), with a colour bar, the best individual ringed and the
//! known-good (published) individuals crossed.
//!
//! Fitness is coloured by rank, not by value: a search crowds most of its individuals near the
//! top, so a linear scale paints nearly all of them the same yellow. The colour of a point is
//! `q²`, `q` being its rank fraction (0 = worst, 1 = best), so the top 10% of the individuals span
//! the top fifth of the colour scale; the colour bar is labelled with the fitness at each colour.

use super::{ensure_font, plot_err, viridis};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// One evaluated individual.
#[derive(Debug, Clone, PartialEq)]
pub struct SpacePoint {
    /// Values of the tuned parameters (internal reals: categories as indices).
    pub values: Vec<f64>,
    /// Its fitness.
    pub fitness: f64,
    /// The generation it was first evaluated in.
    pub generation: usize,
}

/// How an axis is labelled.
#[derive(Debug, Clone, PartialEq)]
pub enum Axis {
    /// A real parameter: the plot library's tick labels.
    Real,
    /// A whole-number parameter: integer ticks only, without ".0".
    Int,
    /// A categorical or boolean parameter: the choice names at their indices.
    Choices(Vec<String>),
}

/// What the space plot shows.
#[derive(Debug, Clone, PartialEq)]
pub struct SpaceInfo {
    /// Title line.
    pub title: String,
    /// Names of the tuned parameters.
    pub names: Vec<String>,
    /// Their ranges (internal reals).
    pub ranges: Vec<(f64, f64)>,
    /// How each parameter's axis is labelled.
    pub axes: Vec<Axis>,
    /// The points.
    pub points: Vec<SpacePoint>,
    /// The best individual's values (ringed).
    pub best: Option<Vec<f64>>,
    /// The known-good individuals' values (crossed).
    pub known: Vec<Vec<f64>>,
}

/// What shades the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shade {
    /// Fitness: light = fitter.
    Fitness,
    /// Generation: light = later.
    Generation,
}

fn panels(n: usize) -> Vec<(usize, Option<usize>)> {
    if n == 1 {
        return vec![(0, None)];
    }
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, Some(j)))).collect()
}

/// The colour position (0..1) of every fitness value of `sorted` (ascending): `q²` of its rank
/// fraction, ties sharing their mean rank.
pub fn rank_colour(sorted: &[f64], x: f64) -> f64 {
    let n = sorted.len();
    if n < 2 {
        return 1.0;
    }
    let lo = sorted.partition_point(|v| *v < x);
    let hi = sorted.partition_point(|v| *v <= x);
    let rank = (lo + hi.max(lo + 1) - 1) as f64 / 2.0;
    let q = (rank / (n - 1) as f64).clamp(0.0, 1.0);
    q * q
}

/// The fitness at colour position `c` of `sorted` (ascending): the inverse of [`rank_colour`].
pub fn fitness_at(sorted: &[f64], c: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n => sorted[((c.clamp(0.0, 1.0).sqrt() * (n - 1) as f64).round() as usize).min(n - 1)],
    }
}

/// A tick label of an axis.
pub fn tick(axis: &Axis, v: f64) -> String {
    let whole = (v - v.round()).abs() < 1e-6;
    match axis {
        Axis::Real => {
            let s = format!("{v:.3}");
            let s = s.trim_end_matches('0').trim_end_matches('.');
            if s == "-0" { "0".into() } else { s.to_string() }
        }
        Axis::Int if whole => format!("{}", v.round() as i64),
        Axis::Choices(c) if whole && v.round() >= 0.0 => c.get(v.round() as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    }
}

/// Ticks for an axis: choices get exactly one tick per choice.
fn tick_count(axis: &Axis, range: (f64, f64)) -> usize {
    match axis {
        Axis::Choices(c) => c.len().max(2),
        Axis::Int => ((range.1 - range.0).round() as usize + 1).clamp(2, 10),
        Axis::Real => 10,
    }
}

type Area<'a, DB> = DrawingArea<DB, plotters::coord::Shift>;

/// Pixels per side of a cell of a panel's binning grid: a marker is 8 pixels wide, so a point
/// left out for sharing its cell with a fitter (or later) one lies under that one's marker.
/// Cells of a fixed number per panel (80, and 150 before) drew 5,657 circles for a random
/// search over 900 settings of five genes, and its report passed 1 MB.
const CELL_PX: f64 = 5.0;

fn draw<DB: DrawingBackend>(
    root: Area<DB>,
    info: &SpaceInfo,
    shade: Shade,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let subtitle = match shade {
        Shade::Fitness => "fitness rank",
        Shade::Generation => "generation",
    };
    let root =
        root.titled(&format!("{}; colour: {subtitle}, red ○ best, × known-good", info.title), ("sans-serif", 15))?;
    let (w, _) = root.dim_in_pixel();
    let (main, bar) = root.split_horizontally(w.saturating_sub(110));
    let ps = panels(info.names.len());
    let cols = (ps.len() as f64).sqrt().ceil() as usize;
    let rows = ps.len().div_ceil(cols.max(1));
    let areas = main.split_evenly((rows.max(1), cols.max(1)));
    let mut sorted: Vec<f64> = info.points.iter().map(|p| p.fitness).collect();
    sorted.sort_by(f64::total_cmp);
    let (fmin, fmax) = (sorted.first().copied().unwrap_or(0.0), sorted.last().copied().unwrap_or(1.0));
    let gmax = info.points.iter().map(|p| p.generation).max().unwrap_or(0).max(1) as f64;
    let colour = |p: &SpacePoint| match shade {
        Shade::Fitness => viridis(rank_colour(&sorted, p.fitness)),
        Shade::Generation => viridis(p.generation as f64 / gmax),
    };
    // Fitter (or later) points last, so they are drawn on top.
    let mut order: Vec<&SpacePoint> = info.points.iter().collect();
    match shade {
        Shade::Fitness => order.sort_by(|a, b| a.fitness.total_cmp(&b.fitness)),
        Shade::Generation => order.sort_by_key(|p| p.generation),
    }
    let fitness_axis = Axis::Real;
    for ((i, j), area) in ps.into_iter().zip(areas.iter()) {
        let (xr, xname, xaxis) = (info.ranges[i], &info.names[i], &info.axes[i]);
        let (yr, yname, yaxis) = match j {
            Some(j) => (info.ranges[j], info.names[j].as_str(), &info.axes[j]),
            None => ((fmin.min(fmax), fmax.max(fmin + 1e-9)), "fitness", &fitness_axis),
        };
        let widen = |r: (f64, f64)| {
            let pad = ((r.1 - r.0) * 0.04).max(1e-6);
            (r.0 - pad)..(r.1 + pad)
        };
        let mut chart = ChartBuilder::on(area)
            .margin(10)
            .x_label_area_size(36)
            .y_label_area_size(60)
            .build_cartesian_2d(widen(xr), widen(yr))?;
        chart
            .configure_mesh()
            .x_desc(xname.as_str())
            .y_desc(yname)
            .x_labels(tick_count(xaxis, xr))
            .y_labels(tick_count(yaxis, yr))
            .x_label_formatter(&|v| tick(xaxis, *v))
            .y_label_formatter(&|v| tick(yaxis, *v))
            .label_style(("sans-serif", 13))
            .draw()?;
        let at = |v: &[f64], f: f64| (v[i], j.map_or(f, |j| v[j]));
        // A gene inactive in an individual (NaN) leaves it out of the gene's panels.
        let here = |v: &[f64]| !v[i].is_nan() && j.is_none_or(|j| !v[j].is_nan());
        let order: Vec<&SpacePoint> = order.iter().copied().filter(|p| here(&p.values)).collect();
        // Binned: of the points falling in one cell of a grid of CELL_PX-pixel cells over the
        // panel (finer than a marker), only the one drawn last (the fittest, or latest) is drawn; what it
        // would hide is hidden anyway, and the page stays small whatever the number of trials.
        let (xw, yw) = ((xr.1 - xr.0).max(1e-12), (yr.1 - yr.0).max(1e-12));
        let (pw, ph) = chart.plotting_area().dim_in_pixel();
        let (xbins, ybins) = ((pw as f64 / CELL_PX).max(1.0), (ph as f64 / CELL_PX).max(1.0));
        let cell = |(x, y): (f64, f64)| {
            let c = |v: f64, lo: f64, w: f64, bins: f64| ((v - lo) / w * bins).round().clamp(-1.0, bins + 1.0) as i64;
            (c(x, xr.0, xw, xbins), c(y, yr.0, yw, ybins))
        };
        let mut last_in_cell = std::collections::HashMap::new();
        for (k, p) in order.iter().enumerate() {
            last_in_cell.insert(cell(at(&p.values, p.fitness)), k);
        }
        let mut shown: Vec<usize> = last_in_cell.into_values().collect();
        shown.sort_unstable();
        chart.draw_series(
            shown.iter().map(|&k| order[k]).map(|p| Circle::new(at(&p.values, p.fitness), 4, colour(p).filled())),
        )?;
        let same =
            |a: &[f64], b: &[f64]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        let fitness_of = |v: &Vec<f64>| info.points.iter().find(|p| same(&p.values, v)).map_or(fmax, |p| p.fitness);
        chart.draw_series(
            info.known.iter().filter(|v| here(v)).map(|v| Cross::new(at(v, fitness_of(v)), 6, BLACK.stroke_width(2))),
        )?;
        if let Some(b) = info.best.as_ref().filter(|b| here(b)) {
            chart.draw_series(std::iter::once(Circle::new(at(b, fitness_of(b)), 9, RED.stroke_width(3))))?;
        }
    }
    draw_bar(bar, shade, &sorted, gmax)?;
    root.present()
}

/// The colour bar: the colour scale from bottom (worst, earliest) to top, labelled with the
/// fitness (or generation) each colour stands for.
fn draw_bar<DB: DrawingBackend>(
    area: Area<DB>,
    shade: Shade,
    sorted: &[f64],
    gmax: f64,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let label = match shade {
        Shade::Fitness => "fitness",
        Shade::Generation => "generation",
    };
    let mut chart = ChartBuilder::on(&area)
        .margin_top(40)
        .margin_bottom(46)
        .margin_right(8)
        .y_label_area_size(62)
        .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
    let fmt = |c: &f64| match shade {
        Shade::Fitness => format!("{:.4}", fitness_at(sorted, *c)),
        Shade::Generation => format!("{:.0}", c * gmax),
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_y_mesh()
        .disable_x_axis()
        .y_desc(label)
        .y_labels(11)
        .y_label_formatter(&fmt)
        .label_style(("sans-serif", 12))
        .draw()?;
    const STEPS: usize = 100;
    chart.draw_series((0..STEPS).map(|k| {
        let (a, b) = (k as f64 / STEPS as f64, (k + 1) as f64 / STEPS as f64);
        Rectangle::new([(0.0, a), (1.0, b)], viridis((a + b) / 2.0).filled())
    }))?;
    Ok(())
}

/// Writes `<stem>.svg` and `<stem>.png`.
pub fn render_space(info: &SpaceInfo, stem: &Path, shade: Shade) -> Result<()> {
    let n = panels(info.names.len()).len();
    let size = if n <= 1 { (900, 600) } else { (1200, 900) };
    render_both!(stem, size, draw(info, shade))
}

#[cfg(test)]
mod tests {
    // Exact values are the point of these tests.
    #![allow(clippy::float_cmp)]
    use super::*;

    #[test]
    fn rank_colours_separate_a_crowded_top() {
        // 90 individuals between 0.80 and 0.85, ten between 0.85 and 0.86: on a linear scale
        // from 0 they would all be yellow; by rank the top ten span the top fifth.
        let mut f: Vec<f64> = (0..90).map(|k| 0.80 + 0.05 * k as f64 / 90.0).collect();
        f.extend((0..10).map(|k| 0.85 + 0.001 * k as f64));
        f.push(0.0);
        f.sort_by(f64::total_cmp);
        let top10 = rank_colour(&f, f[f.len() - 10]);
        assert!((0.79..0.83).contains(&top10), "{top10}");
        assert!((rank_colour(&f, f[f.len() - 1]) - 1.0).abs() < 1e-12);
        assert!(rank_colour(&f, 0.0).abs() < 1e-12);
        // Ties share one colour; the bar's labels invert the scale.
        assert!((rank_colour(&[0.5, 0.5, 0.5], 0.5) - 0.25).abs() < 1e-12);
        assert_eq!(fitness_at(&f, 1.0).to_bits(), f[f.len() - 1].to_bits());
        assert_eq!(fitness_at(&f, top10).to_bits(), f[f.len() - 10].to_bits());
    }

    #[test]
    fn integer_and_choice_axes_have_no_fractions() {
        assert_eq!(tick(&Axis::Int, 40.0), "40");
        assert_eq!(tick(&Axis::Int, 40.5), "");
        assert_eq!(tick(&Axis::Int, -0.0000001), "0");
        let c = Axis::Choices(vec!["false".into(), "true".into()]);
        assert_eq!(
            (tick(&c, 0.0), tick(&c, 1.0), tick(&c, 0.5), tick(&c, 2.0)),
            ("false".into(), "true".into(), String::new(), String::new())
        );
        assert_eq!(
            (tick(&Axis::Real, 0.25), tick(&Axis::Real, 0.5), tick(&Axis::Real, 3.0)),
            ("0.25".into(), "0.5".into(), "3".into())
        );
    }
}

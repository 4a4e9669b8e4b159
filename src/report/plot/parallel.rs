//! Parallel coordinates of the top settings (optuna's `plot_parallel_coordinate`): a vertical
//! axis per tuned parameter and one for fitness, each setting a line through its values, the
//! fitter the lighter (viridis by rank); a gene inactive in a setting leaves its vertex out.

use super::space::{Axis, SpaceInfo, SpacePoint, tick};
use super::{ensure_font, plot_err, viridis};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// The `n` fittest distinct individuals of `info`, best first.
pub fn top_points(info: &SpaceInfo, n: usize) -> Vec<&SpacePoint> {
    let mut seen = std::collections::HashSet::new();
    let mut all: Vec<&SpacePoint> = info.points.iter().filter(|p| p.fitness.is_finite()).collect();
    all.sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
    all.into_iter()
        .filter(|p| seen.insert(p.values.iter().map(|v| v.to_bits()).collect::<Vec<u64>>()))
        .take(n)
        .collect()
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &SpaceInfo,
    n: usize,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let top = top_points(info, n);
    let root = root
        .titled(&format!("{} — the {} fittest settings; light = fitter", info.title, top.len()), ("sans-serif", 15))?;
    let genes = super::slice::live_genes(info);
    let k = genes.len() + 1;
    let flo = top.iter().map(|p| p.fitness).fold(f64::INFINITY, f64::min);
    let fhi = top.iter().map(|p| p.fitness).fold(f64::NEG_INFINITY, f64::max);
    let (flo, fhi) = if flo.is_finite() { (flo, fhi.max(flo + 1e-9)) } else { (0.0, 1.0) };
    let mut chart = ChartBuilder::on(&root)
        .margin_left(70)
        .margin_right(70)
        .margin_top(30)
        .margin_bottom(50)
        .build_cartesian_2d(-0.02f64..(k as f64 - 1.0).max(1.0) + 0.02, -0.02f64..1.02)?;
    // Where a value sits on its axis (0 bottom, 1 top).
    let at = |axis: usize, p: &SpacePoint| -> f64 {
        if axis == genes.len() {
            return (p.fitness - flo) / (fhi - flo);
        }
        let (lo, hi) = info.ranges[genes[axis]];
        (p.values[genes[axis]] - lo) / (hi - lo).max(1e-12)
    };
    let last = top.len().max(2) - 1;
    // Worst first, so the fittest lines lie on top.
    for (rank, p) in top.iter().enumerate().rev() {
        let colour = viridis(1.0 - rank as f64 / last as f64);
        let line: Vec<(f64, f64)> = (0..k).map(|a| (a as f64, at(a, p))).filter(|(_, y)| y.is_finite()).collect();
        chart.draw_series(LineSeries::new(line, colour.stroke_width(2)))?;
    }
    let font = ("sans-serif", 13).into_font().color(&BLACK);
    let area = chart.plotting_area();
    for a in 0..k {
        let x = a as f64;
        area.draw(&PathElement::new(vec![(x, 0.0), (x, 1.0)], BLACK.stroke_width(1)))?;
        let (name, lo, hi) = if a == genes.len() {
            ("fitness".to_string(), format!("{flo:.4}"), format!("{fhi:.4}"))
        } else {
            let g = genes[a];
            let (lo, hi) = info.ranges[g];
            let axis = &info.axes[g];
            let label = |v: f64| match axis {
                Axis::Real => tick(axis, v),
                _ => tick(axis, v.round()),
            };
            (info.names[g].clone(), label(lo), label(hi))
        };
        let label = |t: &str, y: f64, dy: i32| {
            EmptyElement::at((x, y)) + Text::new(t.to_string(), (-3 * t.chars().count() as i32, dy), font.clone())
        };
        area.draw(&label(&hi, 1.0, -18))?;
        area.draw(&label(&lo, 0.0, 4))?;
        area.draw(&label(&name, 0.0, 22))?;
    }
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png` with the `n` fittest distinct settings.
pub fn render_parallel(info: &SpaceInfo, stem: &Path, n: usize) -> Result<()> {
    render_both!(stem, (1200, 460), draw(info, n))
}

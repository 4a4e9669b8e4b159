//! Slice plots (optuna's `plot_slice`): one panel per tuned parameter, every evaluated individual a
//! point at (its value of the parameter, its fitness), shaded by the generation it was evaluated in,
//! the best individual ringed. A panel shows how fitness moves with one gene, the others varying.

use super::space::{Axis, SpaceInfo, SpacePoint, tick};
use super::{ensure_font, plot_err, viridis};
use crate::error::Result;
use plotters::prelude::*;
use std::path::Path;

/// Panels per row.
const COLUMNS: usize = 3;

/// The genes drawn: those active in some individual (a conditional gene never switched on has
/// no point to show).
pub fn live_genes(info: &SpaceInfo) -> Vec<usize> {
    (0..info.names.len())
        .filter(|&g| info.points.iter().any(|p| p.values.get(g).is_some_and(|v| !v.is_nan())))
        .collect()
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    info: &SpaceInfo,
) -> std::result::Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let root = root.titled(&format!("{}; colour: generation, red ○ best", info.title), ("sans-serif", 15))?;
    let genes = live_genes(info);
    let cols = genes.len().clamp(1, COLUMNS);
    let rows = genes.len().div_ceil(cols).max(1);
    let areas = root.split_evenly((rows, cols));
    let fit: Vec<f64> = info.points.iter().map(|p| p.fitness).filter(|f| f.is_finite()).collect();
    let lo = fit.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = fit.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi.is_finite() { (lo, hi) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.05).max(0.002);
    let gmax = info.points.iter().map(|p| p.generation).max().unwrap_or(0).max(1) as f64;
    let mut order: Vec<_> = info.points.iter().collect();
    order.sort_by_key(|p| p.generation);
    let fitness_axis = Axis::Real;
    for (&g, area) in genes.iter().zip(areas.iter()) {
        let (r, axis) = (info.ranges[g], &info.axes[g]);
        let xpad = ((r.1 - r.0) * 0.04).max(1e-6);
        let mut chart = ChartBuilder::on(area)
            .margin(8)
            .x_label_area_size(34)
            .y_label_area_size(56)
            .build_cartesian_2d((r.0 - xpad)..(r.1 + xpad), (lo - pad)..(hi + pad))?;
        let ticks = match axis {
            Axis::Choices(c) => c.len().max(2),
            Axis::Int => ((r.1 - r.0).round() as usize + 1).clamp(2, 8),
            Axis::Real => 6,
        };
        chart
            .configure_mesh()
            .x_desc(info.names[g].as_str())
            .y_desc("fitness")
            .x_labels(ticks)
            .y_labels(6)
            .x_label_formatter(&|v| tick(axis, *v))
            .y_label_formatter(&|v| tick(&fitness_axis, *v))
            .label_style(("sans-serif", 12))
            .draw()?;
        // Of the points in one cell of a fine grid (finer than a marker) only the latest is
        // drawn: it covers the others, and the page stays small whatever the number of trials.
        let (pw, ph) = chart.plotting_area().dim_in_pixel();
        let cell = |p: &&SpacePoint| {
            let c = |v: f64, lo: f64, w: f64, px: u32| ((v - lo) / w.max(1e-12) * f64::from(px) / 3.0).round() as i64;
            (c(p.values[g], r.0, r.1 - r.0, pw), c(p.fitness, lo, hi - lo, ph))
        };
        let here: Vec<&SpacePoint> =
            order.iter().copied().filter(|p| !p.values[g].is_nan() && p.fitness.is_finite()).collect();
        let mut last = std::collections::HashMap::new();
        for (k, p) in here.iter().enumerate() {
            last.insert(cell(p), k);
        }
        let mut shown: Vec<usize> = last.into_values().collect();
        shown.sort_unstable();
        chart.draw_series(
            shown
                .iter()
                .map(|&k| here[k])
                .map(|p| Circle::new((p.values[g], p.fitness), 3, viridis(p.generation as f64 / gmax).filled())),
        )?;
        if let Some(b) = info.best.as_ref().filter(|b| !b[g].is_nan()) {
            let f = info
                .points
                .iter()
                .filter(|p| {
                    p.values.len() == b.len() && p.values.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
                })
                .map(|p| p.fitness)
                .fold(f64::NAN, f64::max);
            let f = if f.is_nan() { hi } else { f };
            chart.draw_series(std::iter::once(Circle::new((b[g], f), 8, RED.stroke_width(2))))?;
        }
    }
    root.present()
}

/// Writes `<stem>.svg` and `<stem>.png`: one panel per gene active in some individual.
pub fn render_slices(info: &SpaceInfo, stem: &Path) -> Result<()> {
    let n = live_genes(info).len().max(1);
    let rows = n.div_ceil(n.clamp(1, COLUMNS)) as u32;
    let size = if n == 1 { (700, 420) } else { (1200, 40 + 320 * rows) };
    render_both!(stem, size, draw(info))
}

//! Charts for `--plot` and `--plot-along`, drawn with plotters without any
//! display or system font library, so that they work from a terminal and
//! in CI. The image format follows the output file's extension (`.png` or
//! `.svg`); text is drawn with DejaVu Sans, embedded in the binary
//! (`assets/fonts/DejaVuSans.ttf`, license in `DejaVuSans-LICENSE.txt`).
//!
//! Takes the decided rows of a run and gives chart files and the lines
//! printed about them:
//!
//! * [`selection`]: which rows become bars and series, where the files go,
//!   what is printed (the only part that knows the comparison's records);
//! * [`summary`] and [`along`]: the two charts;
//! * [`labels`]: row and legend names that keep what tells them apart;
//! * [`legend`]: the along chart's legend below its plot;
//! * [`style`]: the along chart's series colours, dashes and markers;
//! * [`ticks`] and [`canvas`]: tick placement and labels, the font, sizes,
//!   colours and text drawing both charts share;
//! * [`output`] and [`template`]: image formats, output names and
//!   `--plot-along-output` templates, with upstream's messages.

pub mod along;
mod canvas;
pub mod labels;
mod legend;
pub mod output;
pub mod selection;
mod style;
pub mod summary;
pub mod template;
mod ticks;

#[cfg(test)]
mod tests;

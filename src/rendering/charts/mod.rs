//! Charts for `--plot` and `--plot-along`: which decided rows become bars
//! and series and where the files go ([`selection`]), and the drawing
//! ([`plot`]).

pub mod plot;
pub mod selection;

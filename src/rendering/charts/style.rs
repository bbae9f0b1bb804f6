//! How the along chart tells its series apart: a colour per combination
//! of the other axes' values (the group), a line style per side (the
//! reference dashed with round markers, each compare side its own marker
//! and dash), so that no two series of a chart look alike.

use plotters::coord::Shift;
use plotters::element::{Circle, PathElement, Rectangle};
use plotters::prelude::{DrawingArea, DrawingBackend};
use plotters::style::{Color, RGBColor};

use crate::rendering::charts::canvas::{DEEP, drawn, pt};

/// How a line is drawn between the points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Dash {
    Solid,
    Dashed,
    Dotted,
    /// Long dashes.
    Long,
}

/// The shape drawn at each point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
}

/// The look of a series apart from its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct LineStyle {
    pub dash: Dash,
    pub marker: Marker,
}

/// The reference's style: matplotlib's `--` with round markers.
pub(super) const REFERENCE_STYLE: LineStyle = LineStyle {
    dash: Dash::Dashed,
    marker: Marker::Circle,
};

const MARKERS: [Marker; 4] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
];
/// Compare sides step through markers and dashes together (a marker tells
/// sides apart where they measured alike, a dash where lines cross);
/// `Dashed` stays the reference's.
const COMPARE_DASHES: [Dash; 3] = [Dash::Solid, Dash::Dotted, Dash::Long];

/// The style of side `index`: 0 is the reference (or N-way baseline), 1
/// the (first) compare side, solid with round markers as upstream draws
/// it. Twelve compare sides (the least common multiple of three dashes
/// and four markers) get distinct styles before they repeat.
pub(super) fn side_style(index: usize) -> LineStyle {
    if index == 0 {
        return REFERENCE_STYLE;
    }
    let k = index - 1;
    LineStyle {
        dash: COMPARE_DASHES[k % COMPARE_DASHES.len()],
        marker: MARKERS[k % MARKERS.len()],
    }
}

/// The colour of group `index`: seaborn's deep palette, then, once it is
/// used up, darker and then lighter shades of it, so that thirty groups
/// get distinct colours.
pub(super) fn group_color(index: usize) -> RGBColor {
    let base = DEEP[index % DEEP.len()];
    let shade =
        |c: u8, toward: f64, share: f64| (c as f64 + (toward - c as f64) * share).round() as u8;
    let (toward, share) = match (index / DEEP.len()) % 3 {
        0 => return base,
        1 => (0.0, 0.4),
        _ => (255.0, 0.45),
    };
    RGBColor(
        shade(base.0, toward, share),
        shade(base.1, toward, share),
        shade(base.2, toward, share),
    )
}

/// Dash and gap lengths in pixels, matplotlib's patterns scaled by the
/// 1.5 pt line width; `None` for a solid line.
pub(super) fn dash_pattern(dash: Dash) -> Option<(i32, i32)> {
    let scaled = |on: f64, off: f64| (pt(on * 1.5).round() as i32, pt(off * 1.5).round() as i32);
    match dash {
        Dash::Solid => None,
        Dash::Dashed => Some(scaled(3.7, 1.6)),
        Dash::Dotted => Some(scaled(1.0, 1.65)),
        Dash::Long => Some(scaled(7.4, 1.6)),
    }
}

/// Draws `marker` centred on the backend pixel `(x, y)` of `area`: a
/// filled circle of `radius` pixels, or an outline around it, so that
/// where two sides measured the same time both markers show.
pub(super) fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    marker: Marker,
    (x, y): (i32, i32),
    radius: i32,
    color: RGBColor,
) -> Result<(), String> {
    let r = radius as f64;
    let at = |dx: f64, dy: f64| (x + dx.round() as i32, y + dy.round() as i32);
    let outline = color.stroke_width(pt(1.0).round() as u32);
    let closed = |mut points: Vec<(i32, i32)>| {
        points.push(points[0]);
        drawn(area.draw(&PathElement::new(points, outline)))
    };
    match marker {
        Marker::Circle => drawn(area.draw(&Circle::new((x, y), radius, color.filled()))),
        Marker::Square => {
            let half = 1.5 * r;
            let corners = [at(-half, -half), at(half, half)];
            drawn(area.draw(&Rectangle::new(corners, outline)))
        }
        Marker::Triangle => {
            let s = 2.1 * r;
            closed(vec![at(0.0, -s), at(-s, 0.6 * s), at(s, 0.6 * s)])
        }
        Marker::Diamond => {
            let s = 2.0 * r;
            closed(vec![at(0.0, -s), at(s, 0.0), at(0.0, s), at(-s, 0.0)])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn sides_get_distinct_styles_and_only_the_reference_is_dashed() {
        let styles: HashSet<LineStyle> = (0..13).map(side_style).collect();
        assert_eq!(styles.len(), 13);
        assert_eq!(side_style(0), REFERENCE_STYLE);
        assert_eq!(
            side_style(1),
            LineStyle {
                dash: Dash::Solid,
                marker: Marker::Circle
            }
        );
        assert!((1..13).all(|i| side_style(i).dash != Dash::Dashed));
    }

    #[test]
    fn thirty_groups_get_distinct_colours() {
        let colours: HashSet<(u8, u8, u8)> =
            (0..30).map(group_color).map(|c| (c.0, c.1, c.2)).collect();
        assert_eq!(colours.len(), 30);
        assert_eq!(group_color(3), DEEP[3]);
    }
}

//! "Did you mean": the existing names closest to one that matched nothing.
//! Pure: a name and candidates in, the close candidates out, best first.

/// At most this many suggestions: more is a list, not a hint.
pub const MAX_SUGGESTIONS: usize = 5;

/// The candidates close to `name`, best first: same text up to case, then
/// by edit distance (at most a third of the longer name, and at least one
/// edit), then those containing `name` or contained in it (three chars or
/// more). Each distinct
/// candidate appears once, in the order of `candidates` among equals.
pub fn close_names<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = name.to_lowercase();
    let mut scored: Vec<(usize, usize, &'a str)> = Vec::new();
    for (position, candidate) in candidates.into_iter().enumerate() {
        if candidate == name || scored.iter().any(|(_, _, c)| *c == candidate) {
            continue;
        }
        if let Some(score) = closeness(&wanted, &candidate.to_lowercase()) {
            scored.push((score, position, candidate));
        }
    }
    scored.sort();
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, candidate)| candidate)
        .collect()
}

/// `"did you mean 'a', 'b' or 'c'?"`, or `None` without suggestions.
pub fn did_you_mean(suggestions: &[&str]) -> Option<String> {
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("'{s}'")).collect();
    match quoted.as_slice() {
        [] => None,
        [one] => Some(format!("did you mean {one}?")),
        [rest @ .., last] => Some(format!("did you mean {} or {last}?", rest.join(", "))),
    }
}

/// Lower is closer; `None` is not close. Both names are lowercase.
fn closeness(wanted: &str, candidate: &str) -> Option<usize> {
    let longest = wanted.chars().count().max(candidate.chars().count());
    // Optimal string alignment: swapping two neighbours is one edit, so
    // `slwo` is one edit from `slow`.
    let distance = strsim::osa_distance(wanted, candidate);
    if distance <= (longest / 3).max(1) {
        return Some(distance);
    }
    // A letter or two is contained in too many names to mean anything.
    let shortest = wanted.chars().count().min(candidate.chars().count());
    let contained = shortest >= 3 && (candidate.contains(wanted) || wanted.contains(candidate));
    // Containment ranks after every near spelling.
    contained.then_some(longest + distance)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_insertions_deletions_substitutions_and_swaps() {
        let edit_distance = strsim::osa_distance;
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("slwo", "slow"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn a_typo_finds_the_name_and_far_names_are_not_offered() {
        let names = ["copy_type_sweep", "copy_sweep_grid_shape", "reduce"];
        assert_eq!(close_names("copy_type_swep", names), ["copy_type_sweep"]);
        assert_eq!(close_names("COPY_TYPE_SWEEP", names), ["copy_type_sweep"]);
        assert!(close_names("histogram", names).is_empty());
        // The exact name is never suggested for itself.
        assert!(close_names("reduce", names).is_empty());
    }

    #[test]
    fn short_names_allow_one_edit() {
        assert_eq!(close_names("T", ["T", "U"]), ["U"]);
        assert!(close_names("T", ["Elements{io}"]).is_empty());
        assert_eq!(close_names("slwo", ["slow", "same", "ambg"]), ["slow"]);
    }

    #[test]
    fn containment_comes_after_near_spellings_and_at_most_three_are_given() {
        let names = [
            "copy", "copy_a", "copy_b", "copy_c", "copx", "copy_d", "copy_e",
        ];
        assert_eq!(
            close_names("copy_", names),
            ["copy", "copy_a", "copy_b", "copy_c", "copy_d"]
        );
        assert_eq!(close_names("Elements", ["Elements{io}"]), ["Elements{io}"]);
    }

    #[test]
    fn duplicates_are_offered_once() {
        assert_eq!(close_names("slwo", ["slow", "slow"]), ["slow"]);
    }

    #[test]
    fn did_you_mean_lists_the_names() {
        assert_eq!(did_you_mean(&[]), None);
        assert_eq!(did_you_mean(&["a"]).unwrap(), "did you mean 'a'?");
        assert_eq!(
            did_you_mean(&["a", "b", "c"]).unwrap(),
            "did you mean 'a', 'b' or 'c'?"
        );
    }

    #[test]
    fn typos_and_parts_are_close() {
        let names = ["copy_sweep", "copy_type_sweep", "reduce", "copy_swep"];
        assert_eq!(
            close_names("copy_sweeep", names),
            vec!["copy_sweep", "copy_swep"]
        );
        assert_eq!(
            close_names("COPY", names),
            vec!["copy_swep", "copy_sweep", "copy_type_sweep"]
        );
        assert!(close_names("zzzzzzzz", names).is_empty());
        assert_eq!(close_names("t", ["T", "Elements{io}"]), vec!["T"]);
    }
}

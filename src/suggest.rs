//! Close names: which existing names a mistyped one probably meant. Pure and
//! reusable (benchmark names, axis names, config keys).

/// At most this many suggestions: more is a list, not a hint.
pub const MAX_SUGGESTIONS: usize = 5;

/// Shortest name part that makes a containing name close (`t` is in too many).
const MIN_PART: usize = 3;

/// Edit distance (insertions, deletions, substitutions) between two strings,
/// compared character by character, ignoring ASCII case.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// How many edits still count as a typo: a third of the name, at least 2.
fn typo_budget(name: &str) -> usize {
    (name.chars().count() / 3).max(2)
}

/// The candidates close to `name`, closest first (ties in candidate order),
/// without duplicates and at most [`MAX_SUGGESTIONS`]. A candidate is close
/// when it is a few edits away or when one contains the other, ignoring case.
pub fn close_names<'a, I>(name: &str, candidates: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let lower = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (index, candidate) in candidates.into_iter().enumerate() {
        if candidate == name || scored.iter().any(|(_, _, c)| *c == candidate) {
            continue;
        }
        let distance = edit_distance(name, candidate);
        let other = candidate.to_ascii_lowercase();
        // Containment only says something for names of a few characters.
        let contains = lower.len().min(other.len()) >= MIN_PART
            && (other.contains(&lower) || lower.contains(&other));
        if distance <= typo_budget(name) || contains {
            scored.push((distance, index, candidate));
        }
    }
    scored.sort_by_key(|(distance, index, _)| (*distance, *index));
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, candidate)| candidate)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("Copy", "copy"), 0);
        assert_eq!(edit_distance("naïve", "naive"), 1);
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
        assert_eq!(close_names("reduce", names), Vec::<&str>::new());
        assert!(close_names("zzzzzzzz", names).is_empty());
        assert_eq!(close_names("t", ["T", "Elements{io}"]), vec!["T"]);
    }

    #[test]
    fn at_most_a_few_without_duplicates() {
        let names = ["a1", "a2", "a3", "a4", "a5", "a6", "a1"];
        let close = close_names("a", names);
        assert_eq!(close, vec!["a1", "a2", "a3", "a4", "a5"]);
    }
}

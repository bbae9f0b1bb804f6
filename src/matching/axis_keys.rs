//! The robust command's state keys: a state's match key (its name after
//! `Device=N `) with its axis values, sorted as `(name, type, repr(value))`
//! tuples, so that two states of one name but other axis values are other
//! states. The keys are written as Python's `repr` of the key tuple: that is
//! how the script names them when the sides' counts differ, and two keys
//! are equal exactly when their reprs are.

use crate::loading::model::{State, identical_lists};
use crate::loading::scalar::Scalar;
use crate::matching::states::state_match_key;
use crate::pycompat::pyfmt::str_repr;

/// `repr((match_key, normalized_axis_values))` of a state.
pub fn key_repr(state: &State) -> String {
    let mut entries: Vec<(&str, Option<&Scalar>, String)> = state
        .axis_values()
        .iter()
        .map(|axis| {
            let value = axis
                .value
                .as_ref()
                .map_or_else(|| "None".to_string(), Scalar::py_repr);
            (axis.name.as_str(), axis.value_type.as_ref(), value)
        })
        .collect();
    // Python compares the tuples item by item; a type of another kind than
    // a string would make it raise, and sorts first here.
    entries.sort_by(|a, b| {
        let type_text = |t: Option<&Scalar>| t.map(Scalar::py_repr);
        (a.0, type_text(a.1), &a.2).cmp(&(b.0, type_text(b.1), &b.2))
    });
    let tuples: Vec<String> = entries
        .iter()
        .map(|(name, value_type, value)| {
            let value_type = value_type.map_or_else(|| "None".to_string(), Scalar::py_repr);
            format!("({}, {value_type}, {})", str_repr(name), str_repr(value))
        })
        .collect();
    format!(
        "({}, {})",
        str_repr(state_match_key(state)),
        tuple_repr(&tuples)
    )
}

/// Whether two states have one key. Lists that print alike entry for
/// entry make equal keys without formatting them (the usual case: every
/// state of a benchmark would otherwise be printed on every run).
pub fn same_key(a: &State, b: &State) -> bool {
    let same_lists = identical_lists(a.axis_values(), b.axis_values());
    (same_lists && state_match_key(a) == state_match_key(b)) || key_repr(a) == key_repr(b)
}

/// A tuple's repr from its items' (`(x,)` for one item).
fn tuple_repr(items: &[String]) -> String {
    match items {
        [only] => format!("({only},)"),
        _ => format!("({})", items.join(", ")),
    }
}

/// How often each key occurs, in order of first appearance (a Python
/// dict's order); over several runs, the most any run has.
pub fn key_counts<'s>(runs: impl Iterator<Item = Vec<&'s State>>) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for states in runs {
        let mut in_run: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for state in states {
            let key = key_repr(state);
            let at = *index.entry(key.clone()).or_insert_with(|| {
                counts.push((key, 0));
                counts.len() - 1
            });
            let seen = in_run.entry(at).or_insert(0);
            *seen += 1;
            counts[at].1 = counts[at].1.max(*seen);
        }
    }
    counts
}

/// Dict equality: the same keys with the same counts, in any order.
pub fn same_counts(a: &[(String, usize)], b: &[(String, usize)]) -> bool {
    let mut a: Vec<&(String, usize)> = a.iter().collect();
    let mut b: Vec<&(String, usize)> = b.iter().collect();
    a.sort();
    b.sort();
    a == b
}

/// `repr(dict(counts))`.
pub fn counts_repr(counts: &[(String, usize)]) -> String {
    let items: Vec<String> = counts
        .iter()
        .map(|(key, count)| format!("{key}: {count}"))
        .collect();
    format!("{{{}}}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_print_as_python_prints_them() {
        assert_eq!(tuple_repr(&[]), "()");
        assert_eq!(tuple_repr(&["1".to_string()]), "(1,)");
        assert_eq!(tuple_repr(&["1".to_string(), "2".to_string()]), "(1, 2)");
        let counts = vec![("('a', ())".to_string(), 2), ("('b', ())".to_string(), 1)];
        assert_eq!(counts_repr(&counts), "{('a', ()): 2, ('b', ()): 1}");
        let swapped = vec![counts[1].clone(), counts[0].clone()];
        assert!(same_counts(&counts, &swapped));
        assert!(!same_counts(&counts, &counts[..1]));
    }

    /// The shortcut decides as the printed keys do, on lists in other
    /// orders, of other types, `-0.0` against `0.0` and NaN.
    #[test]
    fn same_key_is_equality_of_the_printed_keys() {
        let axis = |name: &str, kind: &str, value: &str| {
            format!(r#"{{"name": "{name}", "type": "{kind}", "value": {value}}}"#)
        };
        let lists = [
            vec![axis("X", "int64", "1")],
            vec![axis("X", "int64", "2")],
            vec![axis("X", "float64", "0.0")],
            vec![axis("X", "float64", "-0.0")],
            vec![axis("X", "float64", "1.0")],
            vec![axis("X", "int64", "1"), axis("T", "type", r#""F32""#)],
            vec![axis("T", "type", r#""F32""#), axis("X", "int64", "1")],
            vec![],
        ];
        let states: Vec<State> = ["a", "b"]
            .iter()
            .flat_map(|name| {
                lists.iter().map(move |list| {
                    let json = format!(
                        r#"{{"name": "Device=0 {name}", "device": 0, "axis_values": [{}]}}"#,
                        list.join(", ")
                    );
                    serde_json::from_str(&json).expect("a state")
                })
            })
            .collect();
        for a in &states {
            for b in &states {
                assert_eq!(same_key(a, b), key_repr(a) == key_repr(b));
            }
        }
        // The two orders of one list are one key.
        assert!(same_key(&states[5], &states[6]));
    }
}

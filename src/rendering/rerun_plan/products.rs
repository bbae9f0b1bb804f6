//! Exact covers of a set of states by Cartesian products. An NVBench
//! benchmark instance runs every combination of the devices its `-d` gives
//! and the values each `-a` gives, so a plan that re-measures exactly the
//! selected states names the benchmark once per product of selected states.

use std::collections::HashSet;

/// A state as the values of its dimensions (its device, then each axis),
/// each value the text the command line gives it.
pub type Point = Vec<String>;

/// A product of values: the values of each dimension, in order of first
/// appearance among the points.
pub type Product = Vec<Vec<String>>;

/// Disjoint products whose union is exactly `points` (a point given twice
/// is covered once), chosen greedily: from the first point not yet
/// covered, each dimension in turn takes every further value (in order of
/// appearance) whose slice of the grown product holds only points not yet
/// covered. Not the fewest products in general, but never a point outside
/// `points` and never one twice, which would re-measure a state twice.
pub fn exact_cover(points: &[Point]) -> Vec<Product> {
    let Some(dimensions) = points.first().map(Vec::len) else {
        return Vec::new();
    };
    debug_assert!(points.iter().all(|p| p.len() == dimensions));
    let values: Vec<Vec<&String>> = (0..dimensions)
        .map(|d| distinct(points.iter().map(|p| &p[d])))
        .collect();
    let mut uncovered: HashSet<&Point> = points.iter().collect();
    let mut products = Vec::new();
    for seed in points {
        if !uncovered.contains(seed) {
            continue;
        }
        let mut product: Product = seed.iter().map(|v| vec![v.clone()]).collect();
        for (dimension, candidates) in values.iter().enumerate() {
            for &value in candidates {
                if product[dimension].contains(value) {
                    continue;
                }
                let mut slice = product.clone();
                slice[dimension] = vec![value.clone()];
                if points_of(&slice).all(|p| uncovered.contains(&p)) {
                    product[dimension].push(value.clone());
                }
            }
        }
        for point in points_of(&product) {
            uncovered.remove(&point);
        }
        products.push(product);
    }
    products
}

/// The distinct values, in order of first appearance.
fn distinct<'a>(values: impl Iterator<Item = &'a String>) -> Vec<&'a String> {
    let mut seen = HashSet::new();
    values.filter(|v| seen.insert(*v)).collect()
}

/// Every point of a product, the last dimension varying fastest.
pub fn points_of(product: &Product) -> impl Iterator<Item = Point> + '_ {
    let total: usize = product.iter().map(Vec::len).product();
    (0..total).map(move |mut index| {
        let mut point = vec![String::new(); product.len()];
        for (dimension, values) in product.iter().enumerate().rev() {
            point[dimension] = values[index % values.len()].clone();
            index /= values.len();
        }
        point
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(list: &[&[&str]]) -> Vec<Point> {
        list.iter()
            .map(|p| p.iter().map(|v| v.to_string()).collect())
            .collect()
    }

    /// Every product's points, each once, are exactly the distinct points.
    fn assert_exact(points: &[Point], products: &[Product]) {
        let mut covered: Vec<Point> = products.iter().flat_map(points_of).collect();
        let count = covered.len();
        covered.sort();
        covered.dedup();
        assert_eq!(covered.len(), count, "a point covered twice: {products:?}");
        let mut wanted = points.to_vec();
        wanted.sort();
        wanted.dedup();
        assert_eq!(covered, wanted, "{products:?}");
    }

    #[test]
    fn a_full_product_is_one_product() {
        let grid = points(&[
            &["0", "I8", "16"],
            &["0", "I8", "18"],
            &["0", "F32", "16"],
            &["0", "F32", "18"],
        ]);
        let products = exact_cover(&grid);
        assert_eq!(
            products,
            vec![vec![vec!["0"], vec!["I8", "F32"], vec!["16", "18"]]]
        );
        assert_exact(&grid, &products);
    }

    #[test]
    fn a_diagonal_needs_a_product_per_point() {
        let diagonal = points(&[&["0", "F32", "18"], &["1", "F32", "24"]]);
        let products = exact_cover(&diagonal);
        assert_eq!(products.len(), 2);
        assert_exact(&diagonal, &products);
    }

    #[test]
    fn an_l_shape_is_cut_into_products_of_selected_points_only() {
        // (a,1) (a,2) (b,1): the product {a,b} x {1,2} would add (b,2).
        let shape = points(&[&["a", "1"], &["a", "2"], &["b", "1"]]);
        let products = exact_cover(&shape);
        assert_eq!(products.len(), 2, "{products:?}");
        assert_exact(&shape, &products);
    }

    #[test]
    fn duplicates_and_no_points() {
        let twice = points(&[&["0", "x"], &["0", "x"]]);
        assert_eq!(exact_cover(&twice), vec![vec![vec!["0"], vec!["x"]]]);
        assert!(exact_cover(&[]).is_empty());
        // No axes: the device alone.
        let devices = points(&[&["0"], &["1"]]);
        assert_eq!(exact_cover(&devices), vec![vec![vec!["0", "1"]]]);
    }

    /// Pseudo-random subsets of a 3 x 4 x 3 grid: always an exact cover.
    #[test]
    fn random_subsets_are_covered_exactly() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..300 {
            let mut subset = Vec::new();
            for d in 0..3 {
                for a in 0..4 {
                    for b in 0..3 {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        if seed.is_multiple_of(3) {
                            subset.push(vec![d.to_string(), a.to_string(), b.to_string()]);
                        }
                    }
                }
            }
            assert_exact(&subset, &exact_cover(&subset));
        }
    }
}

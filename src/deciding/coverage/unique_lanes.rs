//! The values of a chunk of distinct sorted keys in AVX2 lanes, for the two
//! kinds of arrays the bulk path sorts: float32 sample times (32-bit keys)
//! and float64 cycles (64-bit keys). Scalar code turned each key into its
//! value one at a time (a shift, an add and, for times, a widening a key),
//! about a sixth of the bulk pair's instructions.
//!
//! Each lane computes what the scalar value does, bit for bit: a shift
//! left by the same count (a count of 32 or more gives zero in both, once
//! truncated to 32 bits), a wrapping add of the minimum, and the exact
//! widening of float32 to float64.

#![cfg(target_arch = "x86_64")]

use std::arch::x86_64::{
    __m256d, __m256i, _mm_cvtsi32_si128, _mm_cvtsi64_si128, _mm256_add_epi32, _mm256_add_epi64,
    _mm256_castps256_ps128, _mm256_castsi256_ps, _mm256_cvtps_pd, _mm256_extractf128_ps,
    _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_sll_epi32, _mm256_sll_epi64,
};
use std::mem::MaybeUninit;

use super::sorted::{CHUNK, Reduced, SortedBits, SortedUnique, unique_runs};

const _: () = assert!(CHUNK == 8, "the lanes take eight keys");

/// The runs of sorted times or cycles, their values made in lanes; `None`
/// for the other kinds of keys.
#[target_feature(enable = "avx2,bmi2")]
pub(super) fn runs(bits: &SortedBits) -> Option<SortedUnique> {
    let (shift, min) = (bits.shift, bits.min);
    match (&bits.keys, bits.float32) {
        (Reduced::Narrow(keys), true) => {
            let value = |r: u32| f64::from(f32::from_bits(((u64::from(r) << shift) + min) as u32));
            Some(float32_runs(keys, shift, min as u32, value))
        }
        (Reduced::Wide(keys), false) => {
            let value = |r: u64| f64::from_bits((r << shift) + min);
            Some(float64_runs(keys, shift, min, value))
        }
        _ => None,
    }
}

/// Runs of float32 times given as 32-bit keys: the value of key `r` is the
/// float32 of bits `((r << shift) + min) as u32`, widened.
#[target_feature(enable = "avx2,bmi2")]
fn float32_runs(keys: &[u32], shift: u32, min: u32, value: impl Fn(u32) -> f64) -> SortedUnique {
    let count = _mm_cvtsi32_si128(shift.min(32) as i32);
    let min = _mm256_set1_epi32(min as i32);
    unique_runs(
        keys,
        value,
        |chunk: &[u32; CHUNK], out: &mut [MaybeUninit<f64>; CHUNK]| {
            let keys: __m256i = bytemuck::cast(*chunk);
            let bits = _mm256_add_epi32(_mm256_sll_epi32(keys, count), min);
            let floats = _mm256_castsi256_ps(bits);
            let low = _mm256_cvtps_pd(_mm256_castps256_ps128(floats));
            let high = _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(floats));
            let values: [f64; CHUNK] = bytemuck::cast::<[__m256d; 2], _>([low, high]);
            for (slot, value) in out.iter_mut().zip(values) {
                slot.write(value);
            }
        },
    )
}

/// Runs of float64 cycles given as 64-bit keys: the value of key `r` is the
/// float64 of bits `(r << shift) + min`.
#[target_feature(enable = "avx2,bmi2")]
fn float64_runs(keys: &[u64], shift: u32, min: u64, value: impl Fn(u64) -> f64) -> SortedUnique {
    let count = _mm_cvtsi64_si128(i64::from(shift.min(64)));
    let min = _mm256_set1_epi64x(min as i64);
    unique_runs(
        keys,
        value,
        |chunk: &[u64; CHUNK], out: &mut [MaybeUninit<f64>; CHUNK]| {
            let [low, high]: [__m256i; 2] = bytemuck::cast(*chunk);
            let bits = |keys| _mm256_add_epi64(_mm256_sll_epi64(keys, count), min);
            let patterns: [u64; CHUNK] = bytemuck::cast([bits(low), bits(high)]);
            for (slot, pattern) in out.iter_mut().zip(patterns) {
                slot.write(f64::from_bits(pattern));
            }
        },
    )
}

//! The decimal digits of an integer, written without `core::fmt` (a
//! formatter call costs more than the digits on paths run once a state).

/// Room for the digits of any `u64` and a sign.
pub const DIGITS_ROOM: usize = 21;

/// The decimal digits of `value`, preceded by `-` when `negative`, at the
/// end of `room`.
pub fn decimal_digits(value: u64, negative: bool, room: &mut [u8; DIGITS_ROOM]) -> &[u8] {
    let mut at = room.len();
    let mut rest = value;
    loop {
        at -= 1;
        room[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if negative {
        at -= 1;
        room[at] = b'-';
    }
    &room[at..]
}

/// Appends the decimal digits of `value` to `text`.
pub fn push_decimal(text: &mut String, value: u64) {
    let mut room = [0u8; DIGITS_ROOM];
    for &digit in decimal_digits(value, false, &mut room) {
        text.push(char::from(digit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_the_formatted_integer() {
        let mut room = [0u8; DIGITS_ROOM];
        for (value, negative) in [(0, false), (7, true), (10, false), (u64::MAX, true)] {
            let expected = format!("{}{value}", if negative { "-" } else { "" });
            assert_eq!(
                decimal_digits(value, negative, &mut room),
                expected.as_bytes()
            );
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..10_000 {
            crate::testing::xorshift_step(&mut seed);
            let value = seed >> (seed % 64);
            let text = value.to_string();
            assert_eq!(decimal_digits(value, false, &mut room), text.as_bytes());
        }
    }
}

//! Numbers as tmux reads them: OpenBSD's `strtonum` (C blanks, then a sign, then decimal
//! digits and nothing else, within a range), refused with its words: `invalid`, `too small`,
//! `too large`. Every number a command, option, target or format reads goes through here, so
//! that ` 12` is 12 and a number past 64 bits is `too large` everywhere, as in tmux.
//!
//! Pure: no state, no OS.

/// `s` as a number from `min` to `max`, or why not.
pub fn strtonum(s: impl AsRef<[u8]>, min: i64, max: i64) -> Result<i64, &'static str> {
    let s = s.as_ref();
    let start = s.iter().position(|&b| !is_c_space(b)).unwrap_or(s.len());
    let (negative, digits) = match s.get(start) {
        Some(b'-') => (true, &s[start + 1..]),
        Some(b'+') => (false, &s[start + 1..]),
        _ => (false, &s[start..]),
    };
    if min > max || digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err("invalid");
    }
    // strtoll saturates at the 64-bit limits, which are past every range asked for.
    let magnitude = digits.iter().fold(0i128, |n, &d| {
        (n * 10 + i128::from(d - b'0')).min(i128::from(i64::MAX) + 2)
    });
    let value = if negative { -magnitude } else { magnitude };
    if value < i128::from(min) {
        Err("too small")
    } else if value > i128::from(max) {
        Err("too large")
    } else {
        Ok(value as i64)
    }
}

/// A command's numeric argument: the number, or tmux's message (`width too large`).
pub fn argument(s: &str, min: i64, max: i64, what: &str) -> Result<i64, String> {
    strtonum(s, min, max).map_err(|why| format!("{what} {why}"))
}

/// C's `isspace` in the C locale.
pub fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

#[cfg(test)]
mod tests {
    use super::strtonum;

    #[test]
    fn reads_as_openbsd_strtonum() {
        assert_eq!(strtonum("12", 0, 99), Ok(12));
        assert_eq!(strtonum(" \t+12", 0, 99), Ok(12));
        assert_eq!(strtonum("-0", 0, 99), Ok(0));
        assert_eq!(strtonum("-5", -9, 9), Ok(-5));
        assert_eq!(strtonum("", 0, 99), Err("invalid"));
        assert_eq!(strtonum("-", 0, 99), Err("invalid"));
        assert_eq!(strtonum("12 ", 0, 99), Err("invalid"));
        assert_eq!(strtonum("1x", 0, 99), Err("invalid"));
        assert_eq!(strtonum("+-1", -9, 99), Err("invalid"));
        assert_eq!(strtonum("5", 9, 1), Err("invalid"));
        assert_eq!(strtonum("0", 1, 99), Err("too small"));
        assert_eq!(strtonum("100", 1, 99), Err("too large"));
        assert_eq!(strtonum("99999999999999999999999", 1, 99), Err("too large"));
        assert_eq!(
            strtonum("-99999999999999999999999", 1, 99),
            Err("too small")
        );
        assert_eq!(strtonum("9223372036854775807", 0, i64::MAX), Ok(i64::MAX));
        assert_eq!(strtonum("-9223372036854775808", i64::MIN, 0), Ok(i64::MIN));
        assert_eq!(
            strtonum("9223372036854775808", 0, i64::MAX),
            Err("too large")
        );
    }
}

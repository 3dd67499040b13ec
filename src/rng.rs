//! A small deterministic generator (SplitMix64) for the fuzzers and benchmarks: the same seed
//! gives the same sequence on every machine, so a failure found by a seed replays from it.
//! Not for anything secret.

#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True `num` times in `den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }
}

/// A seed as a user gives one to replay a run: decimal, or hexadecimal after `0x` (as runs
/// print them); `None` for anything else.
pub fn parse_seed(text: &str) -> Option<u64> {
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_seed;

    #[test]
    fn seeds_read_as_runs_print_them() {
        assert_eq!(parse_seed("0x1f"), Some(31));
        assert_eq!(parse_seed(" 31\n"), Some(31));
        assert_eq!(parse_seed("1f"), None);
        assert_eq!(parse_seed("0x"), None);
    }
}

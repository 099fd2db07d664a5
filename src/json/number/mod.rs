//! Numbers as text and back, without core's float formatting and parsing
//! machinery (Grisu, Dragon, Eisel-Lemire and their tables), which would
//! otherwise be the largest single part of the WebAssembly module.
//!
//! Most numbers the service meets are prices and rates with a few
//! decimals: exact integer arithmetic finds their digits (and reads them)
//! directly. The rest (a random draw's 17 digits, 1e300) go to a slower
//! path: core's own code in a native build, the JS engine in the
//! WebAssembly build (`Number.prototype.toString` and `parseFloat`, both
//! shortest and correctly rounded). Every form written here is the one
//! Rust's `{:?}`, `{}` and `{:.N}` write, byte for byte; the tests hold
//! both paths to core's output.
//!
//! - `decimal`: the shortest digits of a double;
//! - `write`: numbers as text;
//! - `parse`: text as numbers.

mod decimal;
mod parse;
mod write;

pub use parse::{parse, parse_i64, parse_u64};
pub use write::{debug, display, fixed, push_debug, push_display, push_fixed};

// The tests of numbers written and read: both paths held to core's
// output on a large corpus, and the fast paths alone where they answer.
#[cfg(test)]
mod tests {
    use super::decimal::*;
    use super::parse::*;
    use super::write::*;

    #[test]
    fn whole_numbers_read_as_str_parse_reads_them() {
        let mut texts: Vec<String> = [
            "",
            "+",
            "-",
            "0",
            "-0",
            "+0",
            "007",
            "+-1",
            "-+1",
            "--1",
            "++1",
            "1 ",
            " 1",
            "1.0",
            "1e3",
            "12a",
            "a12",
            "٣",
            "18446744073709551615",
            "18446744073709551616",
            "+18446744073709551615",
            "99999999999999999999",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "-18446744073709551615",
            "000000000000000000000000000001",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every text of up to three of these bytes.
        let alphabet = ["", "0", "1", "9", "+", "-", "a", "."];
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    texts.push([a, b, c].concat());
                }
            }
        }
        // Random digits, signs now and then, up to 23 bytes (past both
        // types' 19 and 20 digits), and random numbers of both types.
        let mut rng = crate::sim::random::Rng::new(7);
        let mut draw = |n: u64| rng.below(n);
        for _ in 0..20_000 {
            let len = draw(24) as usize;
            let text: String = (0..len)
                .map(|_| b"0123456789012345678+-"[draw(21) as usize] as char)
                .collect();
            texts.push(text);
            let wide = draw(1 << 31) << 33 | draw(1 << 31) << 2 | draw(4);
            texts.push(wide.to_string());
            texts.push((wide as i64).to_string());
        }
        for t in &texts {
            assert_eq!(parse_u64(t), t.parse::<u64>().ok(), "u64 {t:?}");
            assert_eq!(parse_i64(t), t.parse::<i64>().ok(), "i64 {t:?}");
        }
    }

    /// A seeded spread of doubles: every exponent, prices and rates with
    /// few decimals, random bit patterns, and the edges.
    fn corpus() -> Vec<f64> {
        let mut values = vec![
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            1e-4,
            9.999999999999999e-5,
            1e16,
            9999999999999998.0,
            1e15,
            999999999999999.9,
            0.1 + 0.2,
            9_007_199_254_740_993.0,
            123456789.125,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            0.00005,
            0.99995,
            0.99994999,
            1e21,
            1e22,
            1e23,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..15_000 {
            let bits = next();
            let x = f64::from_bits(bits);
            if x.is_finite() {
                values.push(x);
            }
            values.push((next() >> 11) as f64 / (1u64 << 53) as f64);
            let cents = (next() % 100_000_000) as f64;
            values.push(cents / 100.0);
            values.push(cents / 1000.0 * 7.0);
            values.push((next() % 1000) as f64 / 10f64.powi((next() % 30) as i32));
        }
        values
    }

    #[test]
    fn debug_matches_core_on_a_large_corpus() {
        for x in corpus() {
            assert_eq!(debug(x), format!("{x:?}"), "{:#x}", x.to_bits());
            assert_eq!(debug(-x), format!("{:?}", -x), "{:#x}", x.to_bits());
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(debug(x), format!("{x:?}"));
        }
    }

    #[test]
    fn display_matches_core_on_a_large_corpus() {
        for x in corpus() {
            assert_eq!(display(x), format!("{x}"), "{:#x}", x.to_bits());
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(display(x), format!("{x}"));
        }
    }

    #[test]
    fn fixed_matches_core_on_a_large_corpus() {
        for x in corpus() {
            for frac in [0, 1, 2, 4, 9] {
                assert_eq!(
                    fixed(x, frac),
                    format!("{x:.*}", frac as usize),
                    "{:#x} .{frac}",
                    x.to_bits()
                );
            }
        }
    }

    #[test]
    fn the_fast_paths_alone_write_and_read_prices_and_rates() {
        for (x, digits, exp) in [
            (19.99, "1999", 1),
            (0.3, "3", -1),
            (1500.0, "15", 3),
            (0.0001, "1", -4),
            (123456.78, "12345678", 5),
        ] {
            let d = fast_shortest(x).map(|d| (d.digits().to_vec(), d.exp));
            assert_eq!(d, Some((digits.as_bytes().to_vec(), exp)), "{x}");
        }
        for (text, x) in [
            ("19.99", 19.99),
            ("-0.3", -0.3),
            ("1500", 1500.0),
            ("1e-4", 1e-4),
        ] {
            assert_eq!(fast_parse(text), Read::Value(x), "{text}");
        }
        // A random draw's 17 digits and 1e300 take the slow paths.
        assert_eq!(fast_shortest(0.20533093650376895), None);
        assert_eq!(fast_parse("1e300"), Read::Slow);
        assert_eq!(fast_parse("0.20533093650376895"), Read::Slow);
    }

    #[test]
    fn the_fast_paths_agree_with_core_wherever_they_answer() {
        let mut answered = 0;
        for x in corpus().into_iter().filter(|x| *x > 0.0) {
            if let Some(d) = fast_shortest(x) {
                let core = Decimal::read(&format!("{x:e}"));
                assert_eq!(Some(d), core, "{x:e}");
                answered += 1;
            }
            let text = format!("{x:?}");
            if let Read::Value(v) = fast_parse(&text) {
                assert_eq!(v.to_bits(), x.to_bits(), "{text}");
            }
        }
        assert!(answered > 10_000, "{answered}");
    }

    /// What a JS engine answers in a tie (the even digit) is turned into
    /// what Rust writes (away from zero); other answers are kept.
    #[test]
    fn ties_are_settled_as_core_settles_them() {
        let mut settled = 0;
        for k in 0..3_000u64 {
            for (frac, even) in [(0.25, "2"), (0.75, "8")] {
                let x = (1u64 << 50) as f64 + (k * 7919) as f64 + frac;
                let whole = (1u64 << 50) + k * 7919;
                let js =
                    Decimal::read(&format!("{whole}.{even}")).unwrap_or_else(|| slow::shortest(x));
                let ours = settle_tie(x, js);
                assert_eq!(ours, slow::shortest(x), "{x:?}");
                settled += usize::from(ours != js);
            }
            let x = (k as f64 + 0.5) / 1024.0 + 1.0;
            assert_eq!(settle_tie(x, slow::shortest(x)), slow::shortest(x), "{x:?}");
        }
        assert_eq!(settled, 3_000);
        for x in corpus().into_iter().filter(|x| *x > 0.0) {
            assert_eq!(settle_tie(x, slow::shortest(x)), slow::shortest(x), "{x:?}");
        }
    }

    #[test]
    fn parse_matches_core_on_a_large_corpus() {
        let mut texts: Vec<String> = Vec::new();
        for x in corpus() {
            texts.push(format!("{x:?}"));
            texts.push(format!("{x:e}"));
            texts.push(format!("{x}"));
        }
        texts.extend(
            [
                "0",
                "-0",
                "0.0",
                "1e400",
                "-1e400",
                "1e-400",
                "12345678901234567890123",
                "0.1e1",
                "1E+2",
                "9007199254740993",
                "9007199254740992.5",
                "0.000001",
                "1e22",
                "1e23",
                "123456789012345678e-5",
                "4.9e-324",
                "2.4703282292062328e-324",
                "00012",
            ]
            .map(String::from),
        );
        for text in &texts {
            let core = text.parse::<f64>().ok();
            let ours = parse(text);
            assert_eq!(ours.map(f64::to_bits), core.map(f64::to_bits), "{text}");
        }
    }

    #[test]
    fn parse_refuses_what_is_not_a_json_number() {
        for text in ["", "-", ".", "e5", "1e", "1.2.3", "abc", "1x"] {
            assert_eq!(parse(text), None, "{text}");
        }
    }
}

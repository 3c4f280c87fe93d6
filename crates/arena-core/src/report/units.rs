//! Units as people type them on the command line and in tournament files:
//! durations (`5s`, `250ms`, `0.1s`) and sizes (`1GiB`, `512MiB`).

use std::time::Duration;

/// Parses `5s`, `0.5s`, `250ms`, `100us` or `1m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| format!("'{text}' is not a duration: write it like 5s, 0.5s or 250ms"))?;
    let seconds = match unit {
        "s" | "" => value,
        "ms" => value / 1e3,
        "us" => value / 1e6,
        "m" | "min" => value * 60.0,
        _ => return Err(format!("'{text}': unknown unit '{unit}' (use s, ms, us or m)")),
    };
    if seconds == 0.0 {
        return Err(format!("'{text}': a time limit must be more than zero"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A duration that may be zero (a wait: `0` waits not at all), else as
/// [`parse_duration`] reads it.
pub fn parse_wait(text: &str) -> Result<Duration, String> {
    match text.trim().trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse::<f64>() {
        Ok(0.0) => Ok(Duration::ZERO),
        _ => parse_duration(text),
    }
}

/// Seconds with two decimals, as reasons show them: `5.31 s`.
pub fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// A short human reading for times that span microseconds to seconds.
pub fn short(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.0} us")
    } else if us < 1e6 {
        format!("{:.1} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// `1GiB`, `512MiB`, `64KiB` or plain bytes; at least 16 MiB (a worker's floor).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let bytes = parse_size(text)?;
    if bytes < 16 << 20 {
        return Err(format!("'{text}' is too little memory for a worker: give it at least 16MiB"));
    }
    Ok(bytes)
}

/// `64M`, `500KiB`, `1GiB` or plain bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale: u64 = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" | "kb" => 1 << 10,
        "m" | "mib" | "mb" => 1 << 20,
        "g" | "gib" | "gb" => 1 << 30,
        _ => return Err(format!("'{text}': unknown unit '{unit}' (use KiB, MiB or GiB)")),
    };
    let value: f64 =
        number.trim().parse().map_err(|_| format!("'{text}' is not a size: write it like 1GiB or 512MiB"))?;
    let bytes = value * scale as f64;
    if bytes.is_nan() || bytes < 0.0 {
        return Err(format!("'{text}' is not a size: write it like 1GiB or 512MiB"));
    }
    Ok(bytes as u64)
}

/// A size as people read it: `812 B`, `3.4 KiB`, `12.0 MiB`, `1.50 GiB`.
pub fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..0x10_0000 => format!("{:.1} KiB", n as f64 / 1024.0),
        0x10_0000..0x4000_0000 => format!("{:.1} MiB", n as f64 / f64::from(1 << 20)),
        _ => format!("{:.2} GiB", n as f64 / f64::from(1 << 30)),
    }
}

/// A count with its thousands marked: `3210` as `3,210`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// For serde's `skip_serializing_if`: a count left out of the output when
/// it is zero (fields added later, so that older outputs stay as they were).
pub(crate) fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_numbers_have_thousands_marked() {
        assert_eq!(thousands(7), "7");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(3210), "3,210");
        assert_eq!(thousands(111_750), "111,750");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert!(parse_bytes("1TB").unwrap_err().contains("unknown unit"));
        assert!(parse_bytes("1KiB").unwrap_err().contains("at least 16MiB"));
        assert_eq!(parse_size("100K"), Ok(100 << 10));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("0"), Ok(0));
        assert!(parse_size("-1M").unwrap_err().contains("not a size"));
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("0.1s"), Ok(Duration::from_millis(100)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        // A wait may be none at all.
        assert_eq!(parse_wait("0"), Ok(Duration::ZERO));
        assert_eq!(parse_wait("0s"), Ok(Duration::ZERO));
        assert_eq!(parse_wait("9m"), Ok(Duration::from_secs(540)));
        assert!(parse_wait("soon").unwrap_err().contains("5s"));
    }

    #[test]
    fn rejects_nonsense_with_a_hint() {
        assert!(parse_duration("fast").unwrap_err().contains("5s"));
        assert!(parse_duration("5h").unwrap_err().contains("unknown unit"));
        assert!(parse_duration("0s").unwrap_err().contains("more than zero"));
        assert!(parse_duration("-1s").is_err());
    }

    #[test]
    fn shows_two_decimals() {
        assert_eq!(seconds(Duration::from_millis(5310)), "5.31 s");
        assert_eq!(short(Duration::from_micros(12)), "12 us");
        assert_eq!(short(Duration::from_micros(3450)), "3.5 ms");
        assert_eq!(short(Duration::from_millis(1200)), "1.20 s");
        assert_eq!(bytes(812), "812 B");
        assert_eq!(bytes(3500), "3.4 KiB");
        assert_eq!(bytes(5 << 20), "5.0 MiB");
        assert_eq!(bytes(3 << 29), "1.50 GiB");
    }
}

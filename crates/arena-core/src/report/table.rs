//! Tables as text, shared by the tournament's standings and grades and the
//! server's CSV files: an aligned terminal table, a Markdown table and its
//! escaped cells, CSV fields and numbers. Every CSV field of text the arena
//! writes (standings, grades.csv, gradebook.csv) goes through
//! [`csv_field`], so that no cell runs as a spreadsheet formula
//! (docs/security.md).

/// Escapes text for a Markdown table cell: the cell separator and what
/// could start markup (code, emphasis, links, HTML); line breaks become
/// spaces. Underscores inside words and `>` are left alone (harmless there).
pub(crate) fn md_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' | '\\' | '`' | '*' | '[' | ']' | '<' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A Markdown table: header, alignment row (`true` = right-aligned), rows.
pub(crate) fn md_table(header: &[String], right: &[bool], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    out.push_str(&line(header));
    let align: Vec<String> = right.iter().map(|&r| if r { "---:".into() } else { "---".into() }).collect();
    out.push_str(&line(&align));
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// An aligned plain-text table, one line per row (header first), columns
/// two spaces apart; `left(k)` says which columns read left to right.
pub(crate) fn text_table(header: &[String], rows: &[Vec<String>], left: impl Fn(usize) -> bool) -> String {
    let all = || std::iter::once(header).chain(rows.iter().map(Vec::as_slice));
    let widths: Vec<usize> =
        (0..header.len()).map(|k| all().map(|row| row[k].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for row in all() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(k, cell)| {
                let pad = " ".repeat(widths[k] - cell.chars().count());
                if left(k) {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// A CSV text field, quoted as RFC 4180 asks when it holds a comma, a quote
/// or a line break. A field a spreadsheet would run as a formula (one that
/// begins with `=`, `+`, `-`, `@`, a tab or a carriage return: a player's or
/// a student's name may) gets a `'` before it, so that it is shown as text.
/// The one CSV writer of text: standings, grades.csv, gradebook.csv.
pub fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        std::borrow::Cow::Owned(format!("'{text}"))
    } else {
        std::borrow::Cow::Borrowed(text)
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.into_owned()
    }
}

/// The fields of one CSV line as `csv_field` wrote them, its quoting
/// undone (a field's `'` before a formula stays: it is the text written).
/// The one CSV reader of the arena's own files (grades.csv, gradebooks).
pub fn csv_line(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// A number for CSV: fixed decimals, empty when not finite.
pub(crate) fn csv_number(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_csv_fields_reads_back_as_written() {
        let texts = ["plain", "a, b", "say \"hi\"", "", "=SUM(1)", "ann \"A\", lee"];
        let line = texts.iter().map(|t| csv_field(t)).collect::<Vec<_>>().join(",");
        let read = csv_line(&line);
        assert_eq!(read.len(), texts.len(), "{line}");
        for (text, field) in texts.iter().zip(&read) {
            let shown = if text.starts_with('=') { format!("'{text}") } else { text.to_string() };
            assert_eq!(field, &shown);
        }
    }

    #[test]
    fn a_csv_field_is_quoted_and_never_runs_as_a_formula() {
        assert_eq!(csv_field("alice"), "alice");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        for (name, shown) in [
            ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""),
            ("+1", "'+1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tcmd", "'\tcmd"),
            ("\rcmd", "\"'\rcmd\""),
        ] {
            assert_eq!(csv_field(name), shown, "{name:?}");
        }
        // Inside, the characters are harmless.
        assert_eq!(csv_field("a=b"), "a=b");
    }
}

//! Text that someone else wrote, as the arena prints it: a player's name,
//! author, notes and parameter names, a replay file's words. A terminal
//! obeys the control characters in what it prints (an escape sequence
//! retitles the window, clears the screen, moves the cursor, a carriage
//! return hides a line), so such text passes here on its way to standard
//! output or an error line: the one filter, whatever the command. The
//! HTML the arena writes needs none (it shows text as text).

use std::borrow::Cow;

/// `text` without its control characters but newline and tab: words that
/// may run over lines (a player's notes).
pub fn plain_text(text: &str) -> Cow<'_, str> {
    keep(text, |c| c == '\n' || c == '\t' || !c.is_control())
}

/// `text` without any control character, line breaks and tabs too: words
/// that stand on a line or in a table's cell (a name, an author, a
/// parameter's name).
pub fn plain_line(text: &str) -> Cow<'_, str> {
    keep(text, |c| !c.is_control())
}

/// `text` borrowed as it is when every character is kept, else the kept ones.
fn keep(text: &str, kept: impl Fn(char) -> bool) -> Cow<'_, str> {
    if text.chars().all(&kept) {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.chars().filter(|&c| kept(c)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_carriage_returns_are_dropped_line_breaks_kept_only_in_text() {
        let hostile = "evil\x1b]0;pwned\x07 \x1b[2J\r\u{9b}31m\tend\nnext";
        assert_eq!(plain_text(hostile), "evil]0;pwned [2J31m\tend\nnext");
        assert_eq!(plain_line(hostile), "evil]0;pwned [2J31mendnext");
    }

    #[test]
    fn plain_text_is_borrowed_as_it_is() {
        assert!(matches!(plain_text("é\tà\nb"), Cow::Borrowed("é\tà\nb")));
        assert!(matches!(plain_line("random 2"), Cow::Borrowed("random 2")));
    }
}

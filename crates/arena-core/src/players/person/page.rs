//! A person at a page: the question as JSON for the page to draw (`state`),
//! and lines posted back (`post`) for the seat's token only. What is
//! posted is untrusted: a line is cut, at most a few wait at once (more
//! are refused, never queued without bound), and a wrong token is refused
//! before anything is read. The page's endpoints are the server's
//! (`arena_server::http::live`); this names no HTTP and no game.

use std::{
    collections::VecDeque,
    io::Read as _,
    sync::{
        mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError},
        Mutex,
    },
    time::{Duration, Instant},
};

use serde_json::{json, Value};

use super::{Question, Read, Table};
use crate::replay::terminal::Paint;

/// The longest line a page may post; news kept for a page.
const LINE_LIMIT: usize = 256;
const NEWS_KEPT: usize = 50;
/// Lines posted and not yet read, at most.
const WAITING: usize = 4;

/// Why a post is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Not this seat's token.
    Token,
    /// Lines are posted faster than the game reads them.
    Busy,
}

/// A page not polled for this long is taken for closed at a match's end.
pub const CLOSED_AFTER: Duration = Duration::from_secs(10);

/// The match is over: tells each page so, and waits until every page still
/// open says it has drawn that, before the seats go. On a busy machine a
/// page's next poll may come seconds late, and an answer computed is not
/// yet an answer delivered: a person should see the end, not that the arena
/// has gone. A page closed (unpolled `closed_after`) or never opened is not
/// waited for.
pub fn last_look(tables: &[std::sync::Arc<PageTable>], closed_after: Duration) {
    for table in tables {
        table.end();
    }
    while tables.iter().any(|table| table.owes_open_page(closed_after)) {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A seat played from a page.
pub struct PageTable {
    token: String,
    sender: SyncSender<(u64, String)>,
    receiver: Mutex<Receiver<(u64, String)>>,
    shown: Mutex<Shown>,
    /// A page unpolled this long has gone away: the game is given up
    /// (`Read::Closed`) instead of waiting out the person's clock.
    gone_after: Option<Duration>,
}

/// What the page is shown: the open question, the news, whether the match
/// is over, a counter the page polls to see what changed.
#[derive(Default)]
struct Shown {
    version: u64,
    /// The version the open question was asked at: a post names it, so a
    /// late click never answers a later question.
    asked: u64,
    question: Option<Question>,
    deadline: Option<Instant>,
    /// The newest version a page says it has drawn (its poll's `seen`), and
    /// when a page last polled.
    drawn: u64,
    served: Option<Instant>,
    news: VecDeque<String>,
    over: bool,
}

impl PageTable {
    /// A table with a fresh token, unguessable (128 bits from the kernel).
    pub fn new() -> std::io::Result<PageTable> {
        let mut bytes = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        let token = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let (sender, receiver) = sync_channel(WAITING);
        Ok(PageTable {
            token,
            sender,
            receiver: Mutex::new(receiver),
            shown: Mutex::default(),
            gone_after: None,
        })
    }

    /// The same, given up when its page has not polled for `after` (from
    /// its first question): a page closed mid-game ends the game.
    pub fn gone_after(self, after: Duration) -> PageTable {
        PageTable { gone_after: Some(after), ..self }
    }

    /// Whether the page went away (unpolled past `gone_after`).
    fn gone(&self) -> bool {
        let Some(after) = self.gone_after else { return false };
        let shown = self.lock();
        shown.served.is_some_and(|served| served.elapsed() > after)
    }

    /// The seat's token: the page's address holds it.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `token` is this seat's (compared in constant time).
    pub fn admits(&self, token: &str) -> bool {
        let (a, b) = (self.token.as_bytes(), token.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
    }

    /// A line from the page, for the seat `token` names, answering the
    /// question asked at version `asked`.
    pub fn post(&self, token: &str, asked: u64, line: &str) -> Result<(), Refused> {
        if !self.admits(token) {
            return Err(Refused::Token);
        }
        let mut line = crate::report::plain::plain_line(line).into_owned();
        line.truncate(line.floor_char_boundary(LINE_LIMIT));
        match self.sender.try_send((asked, line)) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => Err(Refused::Busy),
        }
    }

    /// What the page draws: `version` (changes with anything shown), the
    /// open question (or null), the seconds left to answer it, the news,
    /// whether the match is over. `seen` is the version the polling page
    /// has drawn, if it says (a later one than there is means nothing).
    pub fn state(&self, seen: Option<u64>) -> Value {
        let mut shown = self.lock();
        if let Some(seen) = seen.filter(|&seen| seen <= shown.version) {
            shown.drawn = shown.drawn.max(seen);
        }
        shown.served = Some(Instant::now());
        let left = shown.deadline.map(|d| d.saturating_duration_since(Instant::now()).as_secs());
        json!({
            "version": shown.version,
            "asked": shown.asked,
            "question": shown.question,
            "seconds_left": left,
            "news": shown.news,
            "over": shown.over,
        })
    }

    /// Whether a page that is still open (polled within `closed_after`)
    /// has not yet drawn all there is to show (the match's end).
    pub fn owes_open_page(&self, closed_after: Duration) -> bool {
        let shown = self.lock();
        shown.drawn != shown.version && shown.served.is_some_and(|served| served.elapsed() < closed_after)
    }

    /// The match is over: no question, and the page stops polling.
    fn end(&self) {
        let mut shown = self.lock();
        shown.over = true;
        shown.question = None;
        shown.version += 1;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shown> {
        self.shown.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn news(&self, text: &str) {
        let mut shown = self.lock();
        shown.version += 1;
        for line in text.lines() {
            shown.news.push_back(line.to_string());
        }
        while shown.news.len() > NEWS_KEPT {
            shown.news.pop_front();
        }
    }
}

impl Table for PageTable {
    fn paint(&self) -> Paint {
        Paint { color: false }
    }

    fn ask(&self, question: &Question, left: Option<Duration>) {
        let mut shown = self.lock();
        shown.version += 1;
        shown.asked = shown.version;
        shown.question = Some(question.clone());
        shown.deadline = left.and_then(|left| Instant::now().checked_add(left));
        // A page not yet opened has `gone_after` from its first question.
        if self.gone_after.is_some() && shown.served.is_none() {
            shown.served = Some(Instant::now());
        }
    }

    fn tell(&self, text: &str) {
        self.news(text);
    }

    fn again(&self, text: &str, _ask: &str) {
        self.news(text);
    }

    fn read(&self, deadline: Instant) -> Read {
        let receiver = self.receiver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // With `gone_after`, the page's polls are checked every second.
        let step = if self.gone_after.is_some() { Duration::from_secs(1) } else { Duration::MAX };
        let read = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match receiver.recv_timeout(left.min(step)) {
                Ok((asked, line)) if asked == self.lock().asked => break Read::Line(line),
                // An answer to an earlier question: dropped.
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) if self.gone() => break Read::Closed,
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => continue,
                Err(RecvTimeoutError::Timeout) => break Read::Late,
                Err(RecvTimeoutError::Disconnected) => break Read::Closed,
            }
        };
        // The question is answered (or given up): the page waits for the next.
        let mut shown = self.lock();
        if !matches!(read, Read::Line(_)) {
            shown.question = None;
            shown.version += 1;
        }
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::person::Choice;

    #[test]
    fn only_the_seats_token_posts_and_posts_are_bounded() {
        let table = PageTable::new().unwrap();
        assert_eq!(table.token().len(), 32);
        assert_ne!(table.token(), PageTable::new().unwrap().token());
        assert_eq!(table.post("guess", 0, "1 3"), Err(Refused::Token));
        assert_eq!(table.post(&table.token()[..31], 0, "1 3"), Err(Refused::Token));
        let token = table.token().to_string();
        assert_eq!(table.post(&token, 0, &format!("1 3\u{7}{}", "x".repeat(1000))), Ok(()));
        let Read::Line(line) = table.read(Instant::now() + Duration::from_secs(1)) else { panic!("a line") };
        assert_eq!(line.len(), LINE_LIMIT);
        assert!(line.starts_with("1 3x"), "control characters are dropped: {line}");
        for _ in 0..WAITING {
            assert_eq!(table.post(&token, 0, "1 3"), Ok(()));
        }
        assert_eq!(table.post(&token, 0, "1 3"), Err(Refused::Busy));
        // Answers to an earlier question are dropped, not taken for the next.
        table.ask(&question(), None);
        assert_eq!(table.read(Instant::now() + Duration::from_millis(50)), Read::Late);
        let asked = table.state(None)["asked"].as_u64().unwrap();
        assert_eq!(table.post(&token, asked, "2 2"), Ok(()));
        assert_eq!(table.read(Instant::now() + Duration::from_secs(1)), Read::Line("2 2".into()));
    }

    fn question() -> Question {
        Question {
            board: "b".into(),
            ask: "your move".into(),
            choices: vec![Choice::typed("<script>")],
            squares: Vec::new(),
        }
    }

    #[test]
    fn the_page_sees_the_question_and_the_news() {
        let table = PageTable::new().unwrap();
        table.ask(&question(), Some(Duration::from_secs(60)));
        table.tell("game over: you won (trapped)");
        let state = table.state(None);
        assert_eq!(state["question"]["choices"][0]["text"], "<script>");
        assert_eq!(state["news"][0], "game over: you won (trapped)");
        assert!(state["seconds_left"].as_u64().unwrap() <= 60);
        assert_eq!(table.read(Instant::now()), Read::Late);
        assert!(table.state(None)["question"].is_null());
    }

    #[test]
    fn the_end_waits_until_an_open_page_has_drawn_it_however_late_and_not_for_a_closed_one() {
        let table = std::sync::Arc::new(PageTable::new().unwrap());
        let tables = [table.clone()];
        // Never opened: nothing to wait for.
        table.tell("game over: you won");
        last_look(&tables, CLOSED_AFTER);
        assert!(!table.owes_open_page(CLOSED_AFTER));
        // Open: served the end, but not yet drawn it, it is owed the end.
        let table = std::sync::Arc::new(PageTable::new().unwrap());
        let tables = [table.clone()];
        let drawn = table.state(None)["version"].as_u64();
        table.tell("game over: you lost");
        assert!(table.owes_open_page(CLOSED_AFTER));
        let ended = Instant::now();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                // Its next poll comes 2 s late (a busy machine's page), and
                // the one saying it drew the end 1 s after that.
                std::thread::sleep(Duration::from_secs(2));
                let end = table.state(drawn);
                assert_eq!((&end["news"][0], &end["over"]), (&json!("game over: you lost"), &json!(true)));
                std::thread::sleep(Duration::from_secs(1));
                // A version yet to come is not taken for drawn.
                table.state(Some(end["version"].as_u64().unwrap() + 1));
                assert!(table.owes_open_page(CLOSED_AFTER));
                table.state(end["version"].as_u64());
            });
            last_look(&tables, CLOSED_AFTER);
            assert!(ended.elapsed() >= Duration::from_secs(3), "{:?}", ended.elapsed());
        });
        assert!(!table.owes_open_page(CLOSED_AFTER));
        // Closed: unpolled past `closed_after`, it is not waited for.
        table.tell("game over: a draw");
        std::thread::sleep(Duration::from_millis(60));
        let ended = Instant::now();
        last_look(&tables, Duration::from_millis(50));
        assert!(table.owes_open_page(CLOSED_AFTER) && ended.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn a_page_that_stops_polling_gives_the_game_up_and_one_that_polls_does_not() {
        let table = PageTable::new().unwrap().gone_after(Duration::from_millis(1500));
        table.ask(&question(), None);
        // Polled all along: the person is only late.
        let until = Instant::now() + Duration::from_millis(2500);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while Instant::now() < until {
                    table.state(None);
                    std::thread::sleep(Duration::from_millis(200));
                }
            });
            assert_eq!(table.read(until), Read::Late);
        });
        // Unpolled: given up well before its clock runs out.
        table.ask(&question(), None);
        let asked = Instant::now();
        assert_eq!(table.read(asked + Duration::from_secs(60)), Read::Closed);
        assert!(asked.elapsed() < Duration::from_secs(5), "{:?}", asked.elapsed());
    }
}

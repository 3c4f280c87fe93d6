//! The headers every answer carries: a Content-Security-Policy under which
//! only the server's own code runs (scripts from its own files, or inline
//! code it wrote, named by hash), no sniffing, no framing, and no caching
//! of what a token unlocked.

use std::sync::OnceLock;

use axum::{
    extract::Request,
    http::{header, HeaderValue},
    middleware::Next,
    response::Response,
};
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// Adds the security headers to an answer (a middleware).
pub async fn secure(request: Request, next: Next) -> Response {
    let authenticated = request.headers().contains_key(header::AUTHORIZATION);
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(NOTHING_RUNS));
    }
    if authenticated {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    } else if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    response
}

/// The policy of an answer that is not a page (JSON, CSV, scripts).
const NOTHING_RUNS: &str = "default-src 'none'; frame-ancestors 'none'";

/// The policy of the server's pages: their scripts from the server's own
/// files, their inline style by hash; and, since a replay viewer opened
/// from the student page (as a blob) inherits that page's policy, every
/// viewer's inline code by hash too.
pub fn pages_policy() -> &'static HeaderValue {
    static POLICY: OnceLock<HeaderValue> = OnceLock::new();
    POLICY.get_or_init(|| {
        let pages = [
            include_str!("pages/leaderboard.html"),
            include_str!("pages/student.html"),
            include_str!("pages/staff.html"),
        ];
        let mut viewers = arena_core::games::replays::every_viewers_code();
        // The live viewer: every game's code in one page (a feed of any game).
        viewers.push(arena_core::games::replays::live_page("", false));
        let code: Vec<&str> = pages.into_iter().chain(viewers.iter().map(String::as_str)).collect();
        HeaderValue::from_str(&policy(&code)).expect("a policy is plain text")
    })
}

/// The policy of one generated page (a replay viewer): its own inline code.
pub fn page_policy(html: &str) -> HeaderValue {
    HeaderValue::from_str(&policy(&[html])).expect("a policy is plain text")
}

/// A policy that lets the inline `<script>` and `<style>` blocks of
/// `pages` run, and nothing else but the server's own files.
fn policy(pages: &[&str]) -> String {
    let mut scripts = Vec::new();
    let mut styles = Vec::new();
    for page in pages {
        for (tag, code) in inline_blocks(page) {
            let hash = format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(Sha256::digest(code))
            );
            let list = if tag == "script" { &mut scripts } else { &mut styles };
            if !list.contains(&hash) {
                list.push(hash);
            }
        }
    }
    format!(
        "default-src 'none'; script-src 'self' {}; style-src 'self' {}; style-src-attr 'unsafe-inline'; \
         connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        scripts.join(" "),
        styles.join(" ")
    )
}

/// The code of every inline `<script>` (one that runs: no `src`, no data
/// type) and `<style>` block of `html`, as `("script" | "style", code)`.
fn inline_blocks(html: &str) -> Vec<(&'static str, &str)> {
    let mut blocks = Vec::new();
    for tag in ["script", "style"] {
        let open = format!("<{tag}");
        let close = format!("</{tag}>");
        let mut rest = html;
        while let Some(start) = rest.find(&open) {
            let Some(end_of_open) = rest[start..].find('>').map(|i| start + i + 1) else { break };
            let attributes = &rest[start + open.len()..end_of_open - 1];
            let Some(length) = rest[end_of_open..].find(&close) else { break };
            let code = &rest[end_of_open..end_of_open + length];
            let runs = !attributes.contains("src=") && !attributes.contains("application/json");
            if runs {
                blocks.push((tag, code));
            }
            rest = &rest[end_of_open + length + close.len()..];
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_code_is_found_and_data_and_files_are_not() {
        let html = "<style>\nbody{}\n</style><script src=\"/a.js\"></script>\
                    <script type=\"application/json\">{\"x\":1}</script><script>\nrun()\n</script>";
        assert_eq!(inline_blocks(html), vec![("script", "\nrun()\n"), ("style", "\nbody{}\n")]);
        let policy = policy(&[html]);
        // printf '\nrun()\n' | openssl dgst -sha256 -binary | base64
        let run = "X8AAKgaI44zC2JgsZRJ4adpbl777tdE6qoD0mpUQwV4=";
        assert!(policy.contains(&format!("script-src 'self' 'sha256-{run}';")), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"));
        let scripts = policy.split(';').find(|d| d.trim().starts_with("script-src")).unwrap();
        assert!(!scripts.contains("unsafe"), "{policy}");
    }

    #[test]
    fn the_pages_policy_names_every_viewers_code() {
        let policy = pages_policy().to_str().unwrap().to_string();
        for viewer in arena_core::games::replays::every_viewers_code() {
            for (_, code) in inline_blocks(&viewer) {
                let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(code));
                assert!(policy.contains(&hash), "{hash} missing");
            }
        }
    }
}

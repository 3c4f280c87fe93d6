//! The client side of the API (`arena submit`): upload a library, follow
//! its grading. Plain HTTP: the server is a course's own machine.

use std::{path::Path, time::Duration};

use anyhow::{bail, Context, Result};
use serde_json::Value;

/// A multipart body carrying `bytes` as the file field `field`; its
/// content type and bytes.
pub fn multipart(field: &str, file_name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
    multipart_with(&[], field, file_name, bytes)
}

/// [`multipart`], with text fields (`name`, `value`) before the file.
pub fn multipart_with(
    texts: &[(&str, &str)],
    field: &str,
    file_name: &str,
    bytes: &[u8],
) -> (String, Vec<u8>) {
    let boundary = format!("arena-{}", &crate::store::sha256_hex(bytes)[..24]);
    let mut body = Vec::new();
    for (name, value) in texts {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n").bytes(),
        );
        body.extend(value.bytes());
        body.extend(b"\r\n");
    }
    body.extend(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{}\"\r\n\
             Content-Type: application/octet-stream\r\n\r\n",
            file_name.replace(['"', '\r', '\n'], "_")
        )
        .bytes(),
    );
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A server and the token to use with it.
pub struct Client {
    url: String,
    token: String,
    agent: ureq::Agent,
}

impl Client {
    pub fn new(url: &str, token: &str) -> Client {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Client { url: url.trim_end_matches('/').to_string(), token: token.trim().to_string(), agent }
    }

    /// Uploads the library at `path`, or the Python player folder at
    /// `path` (packed as a .tar.gz), for `assignment` (None: the server's
    /// one): the new submission (`id`, `status`).
    pub fn submit(&self, path: &Path, assignment: Option<&str>) -> Result<Value> {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let (name, bytes) = if path.is_dir() {
            (format!("{name}.tar.gz"), pack(path)?)
        } else {
            (name, std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?)
        };
        // The server refuses an upload it will not take (a wrong token, no
        // upload left this hour) before reading it, closing the connection:
        // ask first, so the answer is a reason, not a broken connection.
        let mine = self.answer(self.get("/api/submissions"), "the token")?;
        if mine["uploads"]["left"].as_u64() == Some(0) {
            bail!(
                "no upload left this hour ({} an hour, the oldest counted made at {} UTC): try again later",
                mine["uploads"]["per_hour"],
                mine["uploads"]["oldest"].as_str().unwrap_or("?")
            );
        }
        let course = self.answer(self.get("/api/assignments"), "the course's assignments")?;
        let names: Vec<&str> = course["assignments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["name"].as_str())
            .collect();
        match assignment {
            Some(assignment) if !names.contains(&assignment) => bail!(
                "--assignment {assignment}: the server has no such assignment (it has {})",
                names.join(", ")
            ),
            None if names.len() > 1 => bail!(
                "the server's course has {} assignments: say which with --assignment ({})",
                names.len(),
                names.join(", ")
            ),
            _ => {}
        }
        let texts: Vec<(&str, &str)> = assignment.map(|a| ("assignment", a)).into_iter().collect();
        let (content_type, body) = multipart_with(&texts, "file", &name, &bytes);
        let response = self
            .agent
            .post(format!("{}/api/submissions", self.url))
            .header("Authorization", format!("Bearer {}", self.token))
            .header("Content-Type", content_type)
            .send(&body[..]);
        self.answer(response, "the submission")
    }

    /// Submission `id`, as the server has it now.
    pub fn submission(&self, id: i64) -> Result<Value> {
        self.answer(self.get(&format!("/api/submissions/{id}")), "the submission's status")
    }

    fn get(&self, path: &str) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        self.agent
            .get(format!("{}{path}", self.url))
            .header("Authorization", format!("Bearer {}", self.token))
            .call()
    }

    fn answer(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        what: &str,
    ) -> Result<Value> {
        let mut response = response.with_context(|| format!("cannot reach the server at {}", self.url))?;
        let status = response.status();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if !status.is_success() {
            let why = value["error"].as_str().map(str::to_string).unwrap_or(text);
            bail!("the server refused {what} ({status}): {why}");
        }
        if value.is_null() {
            bail!("the server at {} answered something that is not JSON: is it an arena server?", self.url);
        }
        Ok(value)
    }
}

/// A Python player's folder as a .tar.gz: its files (links, caches and
/// hidden files left out), under the folder's own name.
pub fn pack(folder: &Path) -> Result<Vec<u8>> {
    let name =
        folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "player".into());
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    let mut stack = vec![(folder.to_path_buf(), std::path::PathBuf::from(&name))];
    while let Some((dir, inside)) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .with_context(|| format!("cannot read {}", dir.display()))?
            .flatten()
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let file_name = entry.file_name();
            let text = file_name.to_string_lossy();
            if text.starts_with('.') || text == "__pycache__" {
                continue;
            }
            let kind = entry.file_type()?;
            if kind.is_dir() {
                stack.push((entry.path(), inside.join(&file_name)));
            } else if kind.is_file() {
                tar.append_path_with_name(entry.path(), inside.join(&file_name))
                    .with_context(|| format!("cannot pack {}", entry.path().display()))?;
            }
        }
    }
    Ok(tar.into_inner()?.finish()?)
}

/// One line for a submission's state: "playing 12/30", "done: PASS", ...
pub fn describe(submission: &Value) -> String {
    let status = submission["status"].as_str().unwrap_or("?");
    match status {
        "playing" => format!("playing {}/{}", submission["played"], submission["total"]),
        "done" => {
            let levels: Vec<String> = submission["grade"]["levels"]
                .as_array()
                .map(|levels| {
                    levels
                        .iter()
                        .map(|l| {
                            let mark = if l["passed"].as_bool() == Some(true) { "passed" } else { "failed" };
                            let level = l["level"].as_str().unwrap_or("?");
                            // A single-player game: the mean score against the level's.
                            match (l["mean"].as_f64(), l["level_mean"].as_f64()) {
                                (Some(mean), Some(theirs)) => {
                                    format!("{level} {mean:.1} vs {theirs:.1} {mark}")
                                }
                                _ => format!("{level} {}/{} {mark}", l["wins"], l["games"]),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            format!("done: {}; {}", levels.join(", "), submission["grade"]["verdict"].as_str().unwrap_or(""))
        }
        "failed" => format!("failed: {}", submission["error"].as_str().unwrap_or("")),
        "superseded" => {
            "superseded: a newer submission of yours was waiting, so this one was not graded".into()
        }
        other => other.to_string(),
    }
}

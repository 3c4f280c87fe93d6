//! The client side of the API (`arena submit`): upload a library, follow
//! its grading. HTTP, or HTTPS (rustls) trusting the system's roots or a
//! CA given (`--ca`: a self-signed server's certificate).

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::{store::archive, store::files as store};

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
    let boundary = format!("arena-{}", &crate::store::files::sha256_hex(bytes)[..24]);
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
    /// The CA file trusted instead of the system's roots, if any.
    ca: Option<PathBuf>,
}

impl Client {
    /// A client trusting the system's root certificates (an https:// URL).
    pub fn new(url: &str, token: &str) -> Client {
        Client::with_roots(url, token, ureq::tls::RootCerts::PlatformVerifier, None)
    }

    /// A client trusting only the CA certificates of PEM file `ca` (the
    /// course's own, or a self-signed server's certificate itself).
    pub fn with_ca(url: &str, token: &str, ca: &Path) -> Result<Client> {
        let pem = std::fs::read(ca).map_err(|e| {
            anyhow::anyhow!("cannot read the CA file {}: {e}: give --ca a PEM file", ca.display())
        })?;
        let certs: Vec<_> = ureq::tls::parse_pem(&pem)
            .filter_map(|item| match item {
                Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
                _ => None,
            })
            .collect();
        if certs.is_empty() {
            bail!(
                "the CA file {} holds no PEM certificate (-----BEGIN CERTIFICATE-----): give --ca the \
                 certificate the course staff gave you",
                ca.display()
            );
        }
        Ok(Client::with_roots(url, token, ureq::tls::RootCerts::new_with_certs(&certs), Some(ca)))
    }

    fn with_roots(url: &str, token: &str, roots: ureq::tls::RootCerts, ca: Option<&Path>) -> Client {
        let tls = ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::Rustls)
            .root_certs(roots)
            .build();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .tls_config(tls)
            .build()
            .into();
        Client {
            url: url.trim_end_matches('/').to_string(),
            token: token.trim().to_string(),
            agent,
            ca: ca.map(Path::to_path_buf),
        }
    }

    /// Uploads the library at `path`, or the Python player folder at
    /// `path` (packed as a .tar.gz), for `assignment` (None: the server's
    /// one): the new submission (`id`, `status`). Checked first as
    /// [`Client::submit_checked`] does, the player's games left unasked.
    pub fn submit(&self, path: &Path, assignment: Option<&str>) -> Result<Value> {
        self.submit_checked(path, assignment, &|_: &Path| None)
    }

    /// [`Client::submit`], with everything the server would refuse checked
    /// before anything is sent or counted against the hourly limit: the
    /// file (a library, or a folder with a player, under the server's
    /// limits: [`checked_upload`]), the token, the uploads left, the
    /// assignment, and the player's games against the assignment's game as
    /// `games_of(path)` tells them (None: it cannot tell, and the server's
    /// check will).
    pub fn submit_checked(
        &self,
        path: &Path,
        assignment: Option<&str>,
        games_of: &dyn Fn(&Path) -> Option<Vec<String>>,
    ) -> Result<Value> {
        let upload = checked_upload(path)?;
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
        if let Some(max) = mine["uploads"]["max_bytes"].as_u64() {
            if upload.bytes.len() as u64 > max {
                bail!(
                    "{} is {} bytes{}, more than the {max} this server accepts: send a smaller one",
                    path.display(),
                    upload.bytes.len(),
                    if upload.player.is_some() { " packed" } else { "" }
                );
            }
        }
        let course = self.answer(self.get("/api/assignments"), "the course's assignments")?;
        let listed = course["assignments"].as_array().cloned().unwrap_or_default();
        let names: Vec<&str> = listed.iter().filter_map(|a| a["name"].as_str()).collect();
        let picked = match assignment {
            Some(assignment) if !names.contains(&assignment) => bail!(
                "--assignment {assignment}: the server has no such assignment (it has {})",
                names.join(", ")
            ),
            None if names.len() > 1 => bail!(
                "the server's course has {} assignments: say which with --assignment ({})",
                names.len(),
                names.join(", ")
            ),
            Some(assignment) => listed.iter().find(|a| a["name"] == assignment),
            None => listed.first(),
        };
        if let Some(picked) = picked {
            let (name, game) = (picked["name"].as_str().unwrap_or("?"), picked["game"].as_str());
            let player = upload.player.as_ref().map_or_else(|| path.to_path_buf(), |p| path.join(p));
            // An archive sent as it is: the server's to open.
            let loadable = upload.player.is_some() || archive::Kind::of(&upload.bytes).is_none();
            if let (Some(game), Some(plays)) = (game, loadable.then(|| games_of(&player)).flatten()) {
                if !plays.iter().any(|p| p == game) {
                    bail!("{}", wrong_game(&plays, name, game));
                }
            }
        }
        let texts: Vec<(&str, &str)> = assignment.map(|a| ("assignment", a)).into_iter().collect();
        let (content_type, body) = multipart_with(&texts, "file", &upload.name, &upload.bytes);
        let response = self
            .agent
            .post(format!("{}/api/submissions", self.url))
            .header("Authorization", format!("Bearer {}", self.token))
            .header("Content-Type", content_type)
            .send(&body[..]);
        self.answer(response, "the submission")
    }

    /// The caller's own submissions, newest first, and the uploads they
    /// may still start this hour (`GET /api/submissions`).
    pub fn submissions(&self) -> Result<Value> {
        self.answer(self.get("/api/submissions"), "the token")
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

    /// Why the server was not reached, with what to do when it is TLS's doing.
    fn unreachable(&self, e: ureq::Error) -> anyhow::Error {
        let url = &self.url;
        let https = url.starts_with("https://");
        let said = format!("{e}");
        use tokio_rustls::rustls::Error as TlsError;
        let dropped = |io: &std::io::Error| {
            use std::io::ErrorKind::*;
            matches!(
                io.kind(),
                ConnectionReset | ConnectionAborted | UnexpectedEof | InvalidData | BrokenPipe
            )
        };
        // rustls's error, as ureq gives it or wrapped in an I/O error.
        let tls = match &e {
            ureq::Error::Rustls(tls) => Some(tls),
            ureq::Error::Io(io) => io.get_ref().and_then(|inner| inner.downcast_ref::<TlsError>()),
            _ => None,
        };
        let untrusted = match &self.ca {
            Some(ca) => format!(
                ": its certificate is not signed by the one in {}: ask the course staff for the \
                 server's certificate",
                ca.display()
            ),
            None => ": its certificate is not one this machine trusts: if the course staff gave you the \
                      server's certificate (self-signed), give it with --ca FILE"
                .to_string(),
        };
        let hint = match (tls, &e) {
            // A self-signed certificate made as a CA's (openssl req -x509's
            // default): no TLS client takes it as a server's.
            (Some(TlsError::InvalidCertificate(why)), _)
                if format!("{why:?}").contains("CaUsedAsEndEntity") =>
            {
                ": the server's certificate is a CA's (basicConstraints CA:TRUE), which TLS clients refuse \
                 as a server's: the staff should make it with CA:FALSE (docs/deploy.md)"
                    .to_string()
            }
            (Some(TlsError::InvalidCertificate(_)), _) => untrusted,
            (Some(_), _) | (_, ureq::Error::Tls(_)) => {
                ": the TLS handshake failed: is the server serving HTTPS? (else use http://)".to_string()
            }
            (_, ureq::Error::Protocol(_)) if !https => ": is the server HTTPS? then use https://".to_string(),
            (_, ureq::Error::Io(io)) if !https && dropped(io) => {
                ": is the server HTTPS? then use https://".to_string()
            }
            _ => String::new(),
        };
        anyhow::anyhow!("cannot reach the server at {url}: {said}{hint}")
    }

    fn answer(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        what: &str,
    ) -> Result<Value> {
        let mut response = response.map_err(|e| self.unreachable(e))?;
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

/// Why a player of `plays` is not one for assignment `name`, whose game
/// is `game`: "this player plays trap; the assignment is intuitive-ai: ...".
/// The server's check says the same.
pub fn wrong_game(plays: &[String], name: &str, game: &str) -> String {
    let plays = match plays {
        [] => "no game".to_string(),
        _ => plays.join(" and "),
    };
    let assignment = if name == game { String::new() } else { format!(" {name}") };
    format!(
        "this player plays {plays}; the assignment{assignment} is {game}: submit a player that plays {game}"
    )
}

/// The games the player at `path` (a library; a Python player: a folder
/// holding PlayerAI.py, or a .py file) says it plays, loaded here as
/// `arena check` loads it (in a sandboxed worker, started within
/// `startup`); or why it does not load here.
pub fn games_of(path: &Path, startup: Duration) -> Result<Vec<String>, String> {
    use arena_core::{
        players::isolation::WorkerLimits,
        players::{Hosting, Player, PlayerSpec},
    };
    let spec = if path.is_file() && path.extension().is_some_and(|e| e == "so") {
        PlayerSpec::Library(path.to_path_buf())
    } else {
        format!("python:{}", path.display()).parse()?
    };
    let hosting = Hosting::isolated(WorkerLimits::new()?);
    let player = Player::load(&spec, &hosting, startup).map_err(|e| e.to_string())?;
    Ok(player.games())
}

/// A file as `arena submit` sends it: its name and bytes, and for a
/// Python player's folder, where its player is in the folder.
pub struct Upload {
    pub name: String,
    pub bytes: Vec<u8>,
    pub player: Option<PathBuf>,
}

/// The file at `path` as it will be sent, checked as the server will check
/// it, so that a refusal costs no upload: a library must look like one
/// (`store::check_library`; a .zip or .tar.gz goes as it is); a Python player's folder must hold a player
/// by the server's rule (`archive::player_among`), in at most
/// `archive::MAX_FILES` files of at most `archive::MAX_BYTES` in all; it is
/// packed as [`pack`] does.
pub fn checked_upload(path: &Path) -> Result<Upload> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if path.is_dir() {
        let files = files_of(path)?;
        let shown = path.display();
        if files.is_empty() {
            bail!("{shown} holds no file to send (hidden files and __pycache__ are left out): name the player's folder");
        }
        if files.len() > archive::MAX_FILES {
            bail!(
                "{shown} holds {} files (hidden ones and __pycache__ left out), more than the {} the server \
                 takes: send only the player's folder",
                files.len(),
                archive::MAX_FILES
            );
        }
        let mut size = 0u64;
        for (file, _) in &files {
            size += std::fs::metadata(file).with_context(|| format!("cannot read {}", file.display()))?.len();
        }
        if size > archive::MAX_BYTES {
            bail!(
                "{shown} holds {} MiB of files, more than the {} MiB the server takes: leave out data files",
                size >> 20,
                archive::MAX_BYTES >> 20
            );
        }
        let inside: Vec<PathBuf> = files.iter().map(|(_, inside)| inside.clone()).collect();
        let player =
            archive::player_among(&inside, &format!("the folder {shown}")).map_err(anyhow::Error::msg)?;
        // The player as the archive names it, under the folder's own name.
        let player = player.strip_prefix(folder_name(path)).unwrap_or(&player).to_path_buf();
        let bytes = pack_files(&files)?;
        return Ok(Upload { name: format!("{name}.tar.gz"), bytes, player: Some(player) });
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    // An archive of a player's folder is the server's to open.
    if archive::Kind::of(&bytes).is_none() {
        store::check_library(&bytes).map_err(|why| anyhow::anyhow!("{}: {why}", path.display()))?;
    }
    Ok(Upload { name, bytes, player: None })
}

/// The name a packed folder's files are under.
fn folder_name(folder: &Path) -> String {
    folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "player".into())
}

/// A Python player's folder as a .tar.gz: its files (links, caches and
/// hidden files left out), under the folder's own name.
pub fn pack(folder: &Path) -> Result<Vec<u8>> {
    pack_files(&files_of(folder)?)
}

/// The files of `folder` that [`pack`] packs: each one's path, and its
/// path in the archive (under the folder's own name); sorted.
fn files_of(folder: &Path) -> Result<Vec<(PathBuf, PathBuf)>> {
    let mut files = Vec::new();
    let mut stack = vec![(folder.to_path_buf(), PathBuf::from(folder_name(folder)))];
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
                files.push((entry.path(), inside.join(&file_name)));
            }
        }
    }
    Ok(files)
}

/// `files` (each one's path, and its path in the archive) as a .tar.gz.
fn pack_files(files: &[(PathBuf, PathBuf)]) -> Result<Vec<u8>> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (path, inside) in files {
        tar.append_path_with_name(path, inside).with_context(|| format!("cannot pack {}", path.display()))?;
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
        // Why (the machine, the disk): never the player's fault; it goes on by itself.
        "waiting" => submission["waiting"].as_str().unwrap_or("waiting").to_string(),
        other => other.to_string(),
    }
}

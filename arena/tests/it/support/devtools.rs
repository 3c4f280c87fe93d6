//! Headless Chromium driven over the DevTools protocol, for the tests that
//! use a page as a person would: type into it, pick a file, press buttons.

use std::{
    net::TcpStream,
    path::Path,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{json, Value};
use tungstenite::{stream::MaybeTlsStream, Message, WebSocket};

/// A running headless Chromium and its one page.
pub struct Browser {
    child: Child,
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    pub fn start(chromium: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let child = Command::new(chromium)
            .args(super::browser::FLAGS)
            .arg("--remote-debugging-port=0")
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        // Chromium writes its port here once it listens.
        let port_file = profile.path().join("DevToolsActivePort");
        let started = Instant::now();
        let port = loop {
            if let Some(port) =
                std::fs::read_to_string(&port_file).ok().and_then(|t| t.lines().next()?.parse::<u16>().ok())
            {
                break port;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "chromium gave no DevTools port");
            std::thread::sleep(Duration::from_millis(50));
        };
        let targets: Value = serde_json::from_str(
            &ureq::get(format!("http://127.0.0.1:{port}/json/list"))
                .call()
                .unwrap()
                .body_mut()
                .read_to_string()
                .unwrap(),
        )
        .unwrap();
        let page = targets.as_array().unwrap().iter().find(|t| t["type"] == "page").expect("a page target");
        let (socket, _) = tungstenite::connect(page["webSocketDebuggerUrl"].as_str().unwrap()).unwrap();
        Browser { child, socket, next_id: 0, _profile: profile }
    }

    /// Sends one command and waits for its answer (events are skipped).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        match self.try_call(method, params) {
            Ok(result) => result,
            Err(error) => panic!("{method}: {error}"),
        }
    }

    /// [`Browser::call`], its error returned.
    fn try_call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.socket
            .send(Message::text(json!({ "id": id, "method": method, "params": params }).to_string()))
            .unwrap();
        loop {
            let message = self.socket.read().unwrap();
            let Ok(text) = message.to_text() else { continue };
            let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            if value["id"] == id {
                return match value["error"].is_null() {
                    true => Ok(value["result"].clone()),
                    false => Err(value),
                };
            }
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    pub fn eval(&mut self, expression: &str) -> Value {
        match self.try_eval(expression) {
            Ok(result) => result["result"]["value"].clone(),
            Err(error) => panic!("Runtime.evaluate: {error}"),
        }
    }

    /// [`Browser::eval`]'s whole answer (`exceptionDetails` checked), or
    /// the command's error.
    fn try_eval(&mut self, expression: &str) -> Result<Value, Value> {
        let asked = json!({ "expression": expression, "returnByValue": true, "awaitPromise": true });
        let result = self.try_call("Runtime.evaluate", asked)?;
        assert!(result["exceptionDetails"].is_null(), "{expression}: {result}");
        Ok(result)
    }

    /// Opens `url` and waits for its document to load.
    pub fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for(
            "document.readyState === 'complete' && location.href !== 'about:blank'",
            Duration::from_secs(30),
        );
    }

    /// Waits until `condition` (JavaScript) is true; a page navigating
    /// meanwhile (its document gone before it answered) is asked again.
    pub fn wait_for(&mut self, condition: &str, within: Duration) {
        let started = Instant::now();
        loop {
            match self.try_eval(&format!("Boolean({condition})")) {
                Ok(result) if result["result"]["value"] == Value::Bool(true) => return,
                Ok(_) => {}
                Err(error) if navigated(&error) => {}
                Err(error) => panic!("{condition}: {error}"),
            }
            if started.elapsed() >= within {
                let page = self.eval("document.body ? document.body.innerText : ''");
                panic!("still not {condition} after {within:?}; the page:\n{page}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Opens, in this tab, the page that `fetch` (JavaScript: a promise of
    /// a response) fetches, as the student page opens a viewer: a blob of
    /// its text, at that blob's address followed by `suffix` (JavaScript:
    /// a string). The navigation starts only once the page has answered:
    /// a document that navigates away before it answers loses the answer.
    pub fn open_fetched(&mut self, fetch: &str, suffix: &str) {
        let blob = self.eval(&format!(
            "(async () => {{ const r = await {fetch}; \
             return URL.createObjectURL(new Blob([await r.text()], {{ type: 'text/html' }})) + {suffix}; }})()"
        ));
        self.eval(&format!("setTimeout(() => {{ location.href = {blob}; }}, 0); true"));
        self.wait_for("location.protocol === 'blob:'", Duration::from_secs(30));
    }

    /// Picks `file` in the file input `selector`, as a person would.
    pub fn choose_file(&mut self, selector: &str, file: &Path) {
        let root = self.call("DOM.getDocument", json!({}))["root"]["nodeId"].clone();
        let node =
            self.call("DOM.querySelector", json!({ "nodeId": root, "selector": selector }))["nodeId"].clone();
        self.call("DOM.setFileInputFiles", json!({ "nodeId": node, "files": [file.to_str().unwrap()] }));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a command failed because its page navigated away (or is
/// navigating) as it ran.
fn navigated(error: &Value) -> bool {
    let message = error["error"]["message"].as_str().unwrap_or_default();
    message.contains("navigated or closed") || message.contains("context")
}

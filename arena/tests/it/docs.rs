//! The docs a reader can walk (issue 64): every relative link in README.md,
//! the pages under docs/ and the players' READMEs leads somewhere (the file
//! exists; a `#anchor` is a heading of the page it names, slugged as GitHub
//! and mdBook slug them), and every page under docs/ is in the book's
//! docs/SUMMARY.md. Code blocks and code spans are not read: a link there
//! is an example. The book itself is built by `mdbook build docs` (CI).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

#[test]
fn every_relative_link_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let pages = pages_of(root);
    assert!(pages.len() >= 20, "read too few pages: {pages:?}");
    let broken = broken_links(root, &pages);
    assert!(
        broken.is_empty(),
        "broken links (point each at a file that exists, and an anchor at a heading of it):\n{}",
        broken.join("\n")
    );
}

#[test]
fn every_page_under_docs_is_in_the_book() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let missing = not_in_summary(root);
    assert!(
        missing.is_empty(),
        "pages missing from docs/SUMMARY.md (list each under the path it belongs to):\n{}",
        missing.join("\n")
    );
}

/// The checker on a made-up tree: it names each broken link, file:line,
/// and passes the good ones, the ones in code and the external ones.
#[test]
fn a_broken_link_is_named_with_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/server")).unwrap();
    let write = |path: &str, text: &str| std::fs::write(root.join(path), text).unwrap();
    write(
        "README.md",
        "# Arena\n\nSee [the server](docs/server.md#the-league) and\n[grading](docs/server/grading.md#no-such-heading).\n",
    );
    write(
        "docs/server.md",
        "# Server\n\n## The league\n\n## The league\n\n[again](#the-league-1), [up](../README.md#arena), \
         [gone](gone.md)\n\n```md\n[in a block](nowhere.md)\n```\n\n`[in a span](nowhere.md)` and \
         [out](https://example.com/x.md)\n",
    );
    write(
        "docs/server/grading.md",
        "# Grading: `arena grade` (issue 7)\n\n[top](#grading-arena-grade-issue-7)\n",
    );
    write("docs/SUMMARY.md", "# Summary\n\n- [Server](server.md)\n");
    let pages = pages_of(root);
    assert_eq!(
        broken_links(root, &pages),
        [
            "README.md:4: docs/server/grading.md#no-such-heading: no heading of docs/server/grading.md has \
             that anchor",
            "docs/server.md:7: gone.md: no such file (docs/gone.md)",
        ]
    );
    assert_eq!(not_in_summary(root), ["docs/server/grading.md"]);
}

/// README.md, every `.md` under docs/ and every README.md under players/,
/// by their paths from the root.
fn pages_of(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs = Vec::new();
    markdown_under(root, Path::new("docs"), &mut docs);
    pages.extend(docs);
    let mut players = Vec::new();
    markdown_under(root, Path::new("players"), &mut players);
    pages.extend(players.into_iter().filter(|p| p.file_name().is_some_and(|n| n == "README.md")));
    pages
}

/// The `.md` files under `root/folder`, sorted, skipping build output.
fn markdown_under(root: &Path, folder: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else { return };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().file_name()).collect();
    entries.sort();
    for name in entries {
        let path = folder.join(&name);
        if root.join(&path).is_dir() {
            if name != "target" && name != "node_modules" && !name.to_string_lossy().starts_with('.') {
                markdown_under(root, &path, out);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// One line per broken link: `file:line: target: why`.
fn broken_links(root: &Path, pages: &[PathBuf]) -> Vec<String> {
    let mut anchors: BTreeMap<PathBuf, Option<BTreeSet<String>>> = BTreeMap::new();
    let mut broken = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        for (line, target) in links(&text) {
            if is_external(&target) {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                normalize(&page.parent().unwrap().join(path.replace("%20", " ")))
            };
            let at = format!("{}:{line}: {target}", page.display());
            if !root.join(&file).exists() {
                broken.push(format!("{at}: no such file ({})", file.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let slugs = anchors.entry(file.clone()).or_insert_with(|| {
                std::fs::read_to_string(root.join(&file)).ok().map(|text| heading_slugs(&text))
            });
            if !slugs.as_ref().is_some_and(|s| s.contains(anchor)) {
                broken.push(format!("{at}: no heading of {} has that anchor", file.display()));
            }
        }
    }
    broken
}

/// The pages under docs/ that docs/SUMMARY.md does not link to.
fn not_in_summary(root: &Path) -> Vec<String> {
    let summary = std::fs::read_to_string(root.join("docs/SUMMARY.md")).unwrap_or_default();
    let listed: BTreeSet<PathBuf> = links(&summary)
        .into_iter()
        .filter(|(_, target)| !is_external(target))
        .map(|(_, target)| normalize(&Path::new("docs").join(target.split('#').next().unwrap())))
        .collect();
    let mut pages = Vec::new();
    markdown_under(root, Path::new("docs"), &mut pages);
    pages
        .into_iter()
        .filter(|page| page != Path::new("docs/SUMMARY.md") && !listed.contains(page))
        .map(|page| page.display().to_string())
        .collect()
}

fn is_external(target: &str) -> bool {
    target.starts_with("//") || target.split_once(':').is_some_and(|(scheme, _)| !scheme.contains(['/', '#']))
}

/// `a/b/../c` as `a/c`: the path a link names, from the root.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The text's lines outside fenced code blocks, in paragraphs (runs of
/// lines with no blank line): each paragraph's first line number and text.
fn paragraphs(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut fence: Option<String> = None;
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        if let Some(f) = &fence {
            if marker.len() >= f.len()
                && marker.starts_with(&f[..1])
                && trimmed[marker.len()..].trim().is_empty()
            {
                fence = None;
            }
            open = false;
            continue;
        }
        if marker.len() >= 3 && marker.chars().all(|c| c == marker.as_bytes()[0] as char) {
            fence = Some(marker);
            open = false;
            continue;
        }
        if line.trim().is_empty() {
            open = false;
        } else if open {
            let last = out.last_mut().unwrap();
            last.1.push('\n');
            last.1.push_str(line);
        } else {
            out.push((i + 1, line.to_string()));
            open = true;
        }
    }
    out
}

/// A paragraph with its code spans blanked (their newlines kept): a run of
/// backticks opens a span only if the same run closes it later.
fn without_code_spans(paragraph: &str) -> String {
    let chars: Vec<char> = paragraph.chars().collect();
    let mut out = String::with_capacity(paragraph.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            let n = chars[j..].iter().take_while(|&&c| c == '`').count();
            if n == run {
                close = Some(j);
                break;
            }
            j += n.max(1);
        }
        match close {
            Some(end) => {
                out.extend(chars[i..end + run].iter().map(|&c| if c == '\n' { '\n' } else { ' ' }));
                i = end + run;
            }
            None => {
                out.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    out
}

/// Every link's line and target: `[text](target)`, `![alt](target)` and a
/// reference definition `[label]: target`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (first, paragraph) in paragraphs(text) {
        let prose = without_code_spans(&paragraph);
        for (n, line) in prose.lines().enumerate() {
            let line_number = first + n;
            let mut rest = line;
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let target = match after.strip_prefix('<') {
                    Some(angled) => angled.split('>').next().unwrap(),
                    None => after.split([')', ' ']).next().unwrap(),
                };
                if !target.is_empty() {
                    out.push((line_number, target.to_string()));
                }
                rest = after;
            }
            let trimmed = line.trim_start();
            if let Some(definition) = trimmed.strip_prefix('[').and_then(|d| d.split_once("]: ")) {
                if let Some(target) = definition.1.split_whitespace().next() {
                    out.push((line_number, target.trim_matches(['<', '>']).to_string()));
                }
            }
        }
    }
    out
}

/// The anchors of a page's headings, as GitHub and mdBook make them:
/// lowercase, only alphanumerics, `-`, `_` and spaces kept, spaces to `-`;
/// the second of a slug is `slug-1`, the third `slug-2`.
fn heading_slugs(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut slugs = BTreeSet::new();
    for (_, paragraph) in paragraphs(text) {
        for line in paragraph.lines() {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            if !(1..=6).contains(&hashes) || !line[hashes..].starts_with([' ', '\t']) {
                continue;
            }
            let title = line[hashes..].trim().trim_end_matches('#').trim();
            let slug: String = title
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect();
            let count = seen.entry(slug.clone()).or_insert(0);
            slugs.insert(if *count == 0 { slug } else { format!("{slug}-{count}") });
            *count += 1;
        }
    }
    slugs
}

//! The server's layering rule, checked on its source (docs/architecture.md): no two modules import
//! each other, directly or through others, and a `store.rs` never reaches routes, extractors or
//! axum. A module is one file (`mod.rs` is its folder); the edges are the `crate::` and `super::`
//! paths it names outside its tests and comments. Edges between a module and the folders it sits
//! in are not counted (`mod.rs` declares its children).

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
};

/// Module path (`records::reviews::store`) -> its source.
fn modules() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] {
                parts.clear();
            }
            out.insert(parts.join("::"), fs::read_to_string(&path).unwrap());
        }
    }
    out
}

/// The source without its unit tests and without comment lines.
fn code_of(source: &str) -> String {
    let source = source
        .find("#[cfg(test)]\nmod tests")
        .map_or(source, |i| &source[..i]);
    source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_end(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        i += 1;
    }
    i
}

/// Every path a `use` tree or an inline path starting at `s[i..]` names, each prefixed by `prefix`.
fn paths_at(s: &[u8], mut i: usize, prefix: &str, out: &mut Vec<String>) -> usize {
    let mut path = prefix.to_owned();
    loop {
        if s.get(i) == Some(&b'{') {
            i += 1;
            loop {
                while i < s.len() && (s[i].is_ascii_whitespace() || s[i] == b',') {
                    i += 1;
                }
                if i >= s.len() || s[i] == b'}' {
                    return i + 1;
                }
                i = paths_at(s, i, &path, out);
                // skip `as alias`
                while i < s.len() && s[i] != b',' && s[i] != b'}' {
                    i += 1;
                }
            }
        }
        let end = ident_end(s, i);
        if end == i {
            out.push(path);
            return i;
        }
        if !path.is_empty() {
            path.push_str("::");
        }
        path.push_str(std::str::from_utf8(&s[i..end]).unwrap());
        i = end;
        if s[i..].starts_with(b"::") {
            i += 2;
        } else {
            out.push(path);
            return i;
        }
    }
}

/// The module paths `code` (of module `me`) names through `crate::` and `super::`.
fn named_paths(me: &str, code: &str) -> Vec<String> {
    let parent = me.rsplit_once("::").map_or("", |(p, _)| p);
    let s = code.as_bytes();
    let mut out = Vec::new();
    for (needle, prefix) in [("crate::", ""), ("super::", parent)] {
        let mut from = 0;
        while let Some(at) = code[from..].find(needle) {
            let start = from + at;
            from = start + needle.len();
            let before = start.checked_sub(1).map(|j| s[j]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            paths_at(s, from, prefix, &mut out);
        }
    }
    out
}

/// Module -> the other modules it imports (ancestors excluded).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut graph = BTreeMap::new();
    for (me, source) in &modules {
        let mut deps = BTreeSet::new();
        for path in named_paths(me, &code_of(source)) {
            let mut segs: Vec<&str> = path.split("::").collect();
            while !segs.is_empty() && !modules.contains_key(&segs.join("::")) {
                segs.pop();
            }
            let target = segs.join("::");
            let related = me == &target
                || me.starts_with(&format!("{target}::"))
                || target.is_empty()
                || target.starts_with(&format!("{me}::"));
            if !related {
                deps.insert(target);
            }
        }
        graph.insert(me.clone(), deps);
    }
    graph
}

/// One circle of `graph`, if it has any.
fn a_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // 0 unseen, 1 on the current path, 2 done
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_owned(), 1);
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|p| p == next).unwrap();
                    let mut circle = path[from..].to_vec();
                    circle.push(next.clone());
                    return Some(circle);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_two_server_modules_import_each_other() {
    let graph = graph();
    assert!(graph.len() > 60, "the walk found the modules");
    assert!(
        graph["records::analyses::store"].contains("records::reviews::store"),
        "the walk sees use trees"
    );
    if let Some(circle) = a_circle(&graph) {
        panic!("import circle: {}", circle.join(" -> "));
    }
}

#[test]
fn stores_reach_neither_routes_nor_extractors_nor_axum() {
    let modules = modules();
    let graph = graph();
    let stores: Vec<&String> = graph.keys().filter(|m| m.ends_with("::store")).collect();
    assert!(stores.len() >= 5, "found the stores: {stores:?}");
    for store in stores {
        for dep in &graph[store] {
            assert!(
                !dep.ends_with("routes") && dep != "platform::extract",
                "{store} imports {dep}"
            );
        }
        assert!(
            !code_of(&modules[store]).contains("axum::"),
            "{store} uses axum"
        );
    }
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(a_circle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let mut paths = Vec::new();
    let code = "use crate::{a::{b, c::D as E}, f};\nfn g() { super::h::i(); }";
    paths.extend(named_paths("x::y", code));
    assert_eq!(paths, ["a::b", "a::c::D", "f", "x::h::i"]);
}

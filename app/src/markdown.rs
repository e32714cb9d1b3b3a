//! The safe subset of Markdown a lesson's text may use, parsed into a tree
//! the page renders as DOM nodes (text nodes in `<p>`, `<li>`, `<strong>`,
//! `<em>`, `<code>`, `<pre>`): never HTML, so a lesson from a URL cannot
//! inject markup. Anything outside the subset is shown as the text it is.
//!
//! The subset: paragraphs (separated by a blank line), lists (lines starting
//! `- `), fenced code blocks (```), and inline `**strong**`, `*emphasis*` and
//! `` `code` ``. No DOM.

/// A run of text with its inline style.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Strong(String),
    Em(String),
    Code(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Para(Vec<Inline>),
    List(Vec<Vec<Inline>>),
    Code(String),
}

/// Parses lesson text into blocks.
pub fn parse(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut items: Vec<Vec<Inline>> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    let flush = |para: &mut Vec<&str>, items: &mut Vec<Vec<Inline>>, blocks: &mut Vec<Block>| {
        if !para.is_empty() {
            blocks.push(Block::Para(inline(&para.join(" "))));
            para.clear();
        }
        if !items.is_empty() {
            blocks.push(Block::List(std::mem::take(items)));
        }
    };
    for line in text.lines() {
        if let Some(lines) = &mut code {
            if line.trim_start().starts_with("```") {
                blocks.push(Block::Code(lines.join("\n")));
                code = None;
            } else {
                lines.push(line);
            }
            continue;
        }
        let t = line.trim();
        if t.starts_with("```") {
            flush(&mut para, &mut items, &mut blocks);
            code = Some(Vec::new());
        } else if t.is_empty() {
            flush(&mut para, &mut items, &mut blocks);
        } else if let Some(item) = t.strip_prefix("- ") {
            if !para.is_empty() {
                blocks.push(Block::Para(inline(&para.join(" "))));
                para.clear();
            }
            items.push(inline(item));
        } else {
            if !items.is_empty() {
                blocks.push(Block::List(std::mem::take(&mut items)));
            }
            para.push(t);
        }
    }
    if let Some(lines) = code {
        blocks.push(Block::Code(lines.join("\n")));
    }
    flush(&mut para, &mut items, &mut blocks);
    blocks
}

/// An inline marker and the node it makes.
type Mark = (&'static str, fn(String) -> Inline);

/// Inline styles; an unclosed marker is plain text.
pub fn inline(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let marks: [Mark; 3] = [("`", Inline::Code), ("**", Inline::Strong), ("*", Inline::Em)];
        let styled = marks.into_iter().find_map(|(mark, make)| {
            let body = rest.strip_prefix(mark)?;
            let end = body.find(mark).filter(|&e| e > 0)?;
            Some((make(body[..end].to_owned()), &body[end + mark.len()..]))
        });
        match styled {
            Some((node, after)) => {
                if !plain.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut plain)));
                }
                out.push(node);
                rest = after;
            }
            None => {
                let c = rest.chars().next().expect("rest is not empty");
                plain.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !plain.is_empty() {
        out.push(Inline::Text(plain));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_and_nothing_else() {
        let b =
            parse("Hello **big** *world* `x = 1`\nnext line\n\n- one\n- `two`\n\n```\nint x;\n```\n<b>no</b> **open");
        assert_eq!(
            b[0],
            Block::Para(vec![
                Inline::Text("Hello ".into()),
                Inline::Strong("big".into()),
                Inline::Text(" ".into()),
                Inline::Em("world".into()),
                Inline::Text(" ".into()),
                Inline::Code("x = 1".into()),
                Inline::Text(" next line".into()),
            ])
        );
        assert_eq!(b[1], Block::List(vec![vec![Inline::Text("one".into())], vec![Inline::Code("two".into())]]));
        assert_eq!(b[2], Block::Code("int x;".into()));
        // Markup is text; an unclosed marker too.
        assert_eq!(b[3], Block::Para(vec![Inline::Text("<b>no</b> **open".into())]));
    }
}

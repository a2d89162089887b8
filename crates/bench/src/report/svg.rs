//! What every SVG chart of the bench shares: the document's opening (root element, white
//! background, title and note lines) and the escaping of text put into it.

use std::fmt::Write as _;

/// The opening of a self-contained SVG document.
pub struct Header<'a> {
    /// Width and height in pixels (also the view box).
    pub width: f64,
    /// See `width`.
    pub height: f64,
    /// The document's sans-serif font size in pixels.
    pub font_size: u32,
    /// The title, in bold (escaped here).
    pub title: &'a str,
    /// The title's font size in pixels.
    pub title_size: u32,
    /// The title's baseline.
    pub title_y: f64,
    /// Grey lines under the title: (baseline, text, escaped here).
    pub notes: &'a [(f64, &'a str)],
}

impl Header<'_> {
    /// The root element, a white background, the title and the notes, one element a line.
    pub fn render(&self) -> String {
        let Header {
            width,
            height,
            font_size,
            title,
            title_size,
            title_y,
            notes,
        } = *self;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{font_size}">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            out,
            r#"<text x="12" y="{title_y}" font-size="{title_size}" font-weight="bold">{}</text>"#,
            escape(title)
        );
        for (y, note) in notes {
            let _ = writeln!(
                out,
                r##"<text x="12" y="{y}" fill="#555">{}</text>"##,
                escape(note)
            );
        }
        out
    }
}

/// The end of the document [`Header::render`] opened.
pub const END: &str = "</svg>\n";

/// `text` with the characters XML gives a meaning to written as entities, for element text and
/// attribute values alike.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_opens_a_document_with_its_title_and_notes_escaped() {
        let header = Header {
            width: 300.0,
            height: 100.5,
            font_size: 12,
            title: "a <b> & \"c\"",
            title_size: 15,
            title_y: 22.0,
            notes: &[(42.0, "one < two"), (58.0, "three")],
        }
        .render();
        let lines: Vec<&str> = header.lines().collect();
        assert_eq!(
            lines,
            [
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100.5" viewBox="0 0 300 100.5" font-family="sans-serif" font-size="12">"#,
                r#"<rect width="100%" height="100%" fill="white"/>"#,
                r#"<text x="12" y="22" font-size="15" font-weight="bold">a &lt;b&gt; &amp; &quot;c&quot;</text>"#,
                r##"<text x="12" y="42" fill="#555">one &lt; two</text>"##,
                r##"<text x="12" y="58" fill="#555">three</text>"##,
            ]
        );
        assert!(format!("{header}{END}").ends_with("</svg>\n"));
    }
}

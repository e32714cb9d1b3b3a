//! `printf` formats: a literal parsed into text and conversions. The checker parses
//! it to report mistakes with the call's location; code generation parses it again
//! (it is the same literal) to emit the characters and the digit conversions.

/// What one conversion prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv {
    /// `%d`, `%i`: a signed decimal.
    Dec,
    /// `%u`: the word read as unsigned, in decimal.
    Unsigned,
    /// `%x`, `%X`: the word read as unsigned, in hexadecimal.
    Hex { upper: bool },
    /// `%c`: one character.
    Char,
    /// `%s`: a `'\0'`-terminated string.
    Str,
}

/// A number conversion's length modifier: the type its argument is converted to first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Size {
    /// None, `l` (`long` is one word, as `int`) or `z` (`size_t` is `unsigned int`).
    #[default]
    Word,
    /// `h`: `short` (`%hd`) or `unsigned short` (`%hu`, `%hx`).
    Short,
    /// `hh`: `signed char` (`%hhd`) or `unsigned char` (`%hhu`, `%hhx`).
    Char,
}

/// A conversion with its field: at least `width` characters, padded with spaces on the
/// left (on the right with `-`), or with zeros after the sign (`0`, numbers only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub conv: Conv,
    pub width: usize,
    pub left: bool,
    pub zero: bool,
    pub size: Size,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Characters printed as they are (`%%` is a `%` here).
    Text(Vec<u8>),
    Arg(Spec),
}

impl Piece {
    pub fn spec(&self) -> Option<Spec> {
        match self {
            Piece::Arg(s) => Some(*s),
            Piece::Text(_) => None,
        }
    }
}

/// The widest field: the padding count must stay a small N-bit number.
pub const MAX_WIDTH: usize = 100;

/// What a format may contain, for hints.
pub const SUPPORTED: &str = "conversions: %d %i %u %x %X %c %s and %%, with an optional `-` or `0` flag, a width \
     (`%3d`, `%-4s`, `%02x`) and for numbers a length `hh`, `h`, `l` or `z` (`%hhu`, `%ld`)";

/// Splits a format into text and conversions, or says what is wrong with it.
pub fn parse(fmt: &[u8]) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut text = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            text.push(fmt[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let (mut left, mut zero) = (false, false);
        while let Some(&f @ (b'-' | b'0')) = fmt.get(i) {
            left |= f == b'-';
            zero |= f == b'0';
            i += 1;
        }
        let mut width = 0;
        while let Some(d) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
            width = (width * 10 + usize::from(d - b'0')).min(MAX_WIDTH + 1);
            i += 1;
        }
        let size_at = i;
        let size = match (fmt.get(i), fmt.get(i + 1)) {
            (Some(b'h'), Some(b'h')) => Some(Size::Char),
            (Some(b'h'), _) => Some(Size::Short),
            (Some(b'l'), Some(b'l')) => {
                return Err(format!("`{}`: `long long` is unsupported", spelled(fmt, start, i + 1)))
            }
            (Some(b'l' | b'z'), _) => Some(Size::Word),
            _ => None,
        };
        i += match size {
            Some(Size::Char) => 2,
            Some(_) => 1,
            None => 0,
        };
        let conv = match fmt.get(i) {
            Some(b'%') if i == start + 1 => {
                text.push(b'%');
                i += 1;
                continue;
            }
            Some(b'd' | b'i') => Conv::Dec,
            Some(b'u') => Conv::Unsigned,
            Some(b'x') => Conv::Hex { upper: false },
            Some(b'X') => Conv::Hex { upper: true },
            Some(b'c') => Conv::Char,
            Some(b's') => Conv::Str,
            None => return Err(format!("the format ends inside the conversion `{}`", spelled(fmt, start, i))),
            Some(b'f' | b'e' | b'g') => {
                return Err(format!("`{}` prints a float: there are no floats", spelled(fmt, start, i)))
            }
            Some(b'.') => return Err(format!("a precision (`{}…`) is unsupported", spelled(fmt, start, i))),
            Some(_) => return Err(format!("the conversion `{}` is unsupported", spelled(fmt, start, i))),
        };
        if width > MAX_WIDTH {
            return Err(format!("the field width of `{}` is larger than {MAX_WIDTH}", spelled(fmt, start, i)));
        }
        if zero && matches!(conv, Conv::Char | Conv::Str) {
            return Err(format!("the `0` flag of `{}` pads numbers only", spelled(fmt, start, i)));
        }
        if size.is_some() && matches!(conv, Conv::Char | Conv::Str) {
            let m = String::from_utf8_lossy(&fmt[size_at..i]).into_owned();
            return Err(format!("the length `{m}` of `{}` is for numbers only", spelled(fmt, start, i)));
        }
        i += 1;
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        out.push(Piece::Arg(Spec { conv, width, left, zero: zero && !left, size: size.unwrap_or_default() }));
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

/// The conversion as written, from its `%` to byte `last`.
fn spelled(fmt: &[u8], start: usize, last: usize) -> String {
    String::from_utf8_lossy(&fmt[start..(last + 1).min(fmt.len())]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(conv: Conv, width: usize, left: bool, zero: bool) -> Piece {
        Piece::Arg(Spec { conv, width, left, zero, size: Size::Word })
    }

    #[test]
    fn splits_text_and_conversions() {
        let p = parse(b"x=%3d, %-4s|%02x%%%c\n").unwrap();
        assert_eq!(
            p,
            [
                Piece::Text(b"x=".to_vec()),
                arg(Conv::Dec, 3, false, false),
                Piece::Text(b", ".to_vec()),
                arg(Conv::Str, 4, true, false),
                Piece::Text(b"|".to_vec()),
                arg(Conv::Hex { upper: false }, 2, false, true),
                Piece::Text(b"%".to_vec()),
                arg(Conv::Char, 0, false, false),
                Piece::Text(b"\n".to_vec()),
            ]
        );
        assert_eq!(parse(b"%i %u %X").unwrap().iter().filter_map(Piece::spec).count(), 3);
        assert_eq!(parse(b"%-05d").unwrap(), [arg(Conv::Dec, 5, true, false)], "`-` wins over `0`, as in C");
        let sizes: Vec<_> = parse(b"%hhu%hd%lx%zu%u").unwrap().iter().filter_map(|p| Some(p.spec()?.size)).collect();
        assert_eq!(sizes, [Size::Char, Size::Short, Size::Word, Size::Word, Size::Word]);
    }

    #[test]
    fn explains_what_it_cannot_print() {
        assert_eq!(parse(b"%f").unwrap_err(), "`%f` prints a float: there are no floats");
        assert_eq!(parse(b"%lld").unwrap_err(), "`%ll`: `long long` is unsupported");
        assert_eq!(parse(b"%hs").unwrap_err(), "the length `h` of `%hs` is for numbers only");
        assert_eq!(parse(b"%q").unwrap_err(), "the conversion `%q` is unsupported");
        assert_eq!(parse(b"ab%5").unwrap_err(), "the format ends inside the conversion `%5`");
        assert!(parse(b"%999d").unwrap_err().contains("larger than 100"));
        assert!(parse(b"%05s").unwrap_err().contains("pads numbers only"));
        assert_eq!(parse(b"%5.2d").unwrap_err(), "a precision (`%5.…`) is unsupported");
    }
}

//! A Sudoku typed by the user: 81 cells, row by row.

/// Parses 81 cells: digits 1–9, and `0` or `.` for an empty cell. Spaces,
/// line breaks, `|`, `-` and `+` (grid drawings) are ignored. Whether the
/// givens agree with each other is the solver's job (it reports them unsolvable).
pub fn parse_puzzle(text: &str) -> Result<Vec<i64>, String> {
    let mut cells = Vec::with_capacity(81);
    for (k, ch) in text.chars().enumerate() {
        match ch {
            '1'..='9' => cells.push(i64::from(ch as u8 - b'0')),
            '0' | '.' => cells.push(0),
            c if c.is_whitespace() || "|-+".contains(c) => {}
            c => return Err(format!("`{c}` (character {}) is not a digit, 0 or `.`", k + 1)),
        }
    }
    if cells.len() != 81 {
        return Err(format!("a Sudoku has 81 cells; this has {} (use 0 or . for an empty cell)", cells.len()));
    }
    Ok(cells)
}

//! The one bounded reader: every small file cetune reads whole (parameter, model, wrapper, run
//! and list files) and every line-oriented input (JSONL records, `--files-from` lists) goes
//! through here, so no input can make a read block (a FIFO nobody writes) or grow without end
//! (`/dev/zero`, an endless line on standard input). Imports from the crate: `error`.

use crate::error::{Error, Result};
use std::io::{BufRead, Read};
use std::path::Path;

/// What kind of file `meta` describes, for a message: `a FIFO (named pipe)`, `a character
/// device`, …; with `link`, the symlink's target is named too (`a character device (a symlink
/// to /dev/zero)`).
fn kind_of(path: &Path, meta: &std::fs::Metadata) -> String {
    let ft = meta.file_type();
    #[cfg(unix)]
    let special = {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            Some("a FIFO (named pipe)")
        } else if ft.is_char_device() {
            Some("a character device")
        } else if ft.is_block_device() {
            Some("a block device")
        } else if ft.is_socket() {
            Some("a socket")
        } else {
            None
        }
    };
    #[cfg(not(unix))]
    let special: Option<&str> = None;
    let kind = if ft.is_dir() { "a folder" } else { special.unwrap_or("not a regular file") };
    match std::fs::read_link(path) {
        Ok(target) => format!("{kind} (a symlink to {})", target.display()),
        Err(_) => kind.to_string(),
    }
}

/// Reads a small file whole, at most `cap` bytes: a regular file only (a FIFO, a device such as
/// `/dev/zero` or a folder is refused before it is opened, so nothing blocks or grows without
/// end, and the message says what it is, through a symlink too), and a file larger than `cap`
/// is refused after reading at most `cap + 1` bytes. `what` names the file in errors
/// (`parameter file`). Errors are configuration errors (exit 2).
pub fn read_capped(path: &Path, cap: u64, what: &str) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        // A file named on the command line that is missing is a usage error (exit 2).
        std::io::ErrorKind::NotFound => Error::not_found(path, &format!("{what} not found")),
        _ => Error::config(format!("cannot read {what}: {e}")).with_path(path),
    })?;
    if !meta.is_file() {
        return Err(Error::config(format!("{what} is not a regular file but {}: not read", kind_of(path, &meta)))
            .with_path(path));
    }
    let too_large = || Error::config(format!("{what} too large: more than {cap} bytes")).with_path(path);
    if meta.len() > cap {
        return Err(too_large());
    }
    let file =
        std::fs::File::open(path).map_err(|e| Error::config(format!("cannot read {what}: {e}")).with_path(path))?;
    let mut out = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut out).map_err(|e| Error::io(path, &format!("read {what}"), e))?;
    if out.len() as u64 > cap {
        return Err(too_large());
    }
    Ok(out)
}

/// [`read_capped`] as UTF-8 text.
pub fn read_capped_text(path: &Path, cap: u64, what: &str) -> Result<String> {
    String::from_utf8(read_capped(path, cap, what)?)
        .map_err(|_| Error::config(format!("{what} is not UTF-8 text")).with_path(path))
}

/// Opens a list read line by line with [`read_line`] (`what`: `input list`): `-` is standard
/// input; a file must be a regular file or a FIFO (a list streamed through a named pipe or
/// `<(find …)`). A device (`/dev/zero`), a socket or a folder is refused before it is read,
/// named as what it is.
pub fn open_list(path: &Path, what: &str) -> Result<Box<dyn BufRead + Send>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::BufReader::new(std::io::stdin())));
    }
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::not_found(path, &format!("{what} not found")),
        _ => Error::config(format!("cannot read the {what}: {e}")).with_path(path),
    })?;
    #[cfg(unix)]
    let fifo = std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type());
    #[cfg(not(unix))]
    let fifo = false;
    if !meta.is_file() && !fifo {
        return Err(Error::config(format!(
            "the {what} is not a regular file or a pipe but {}: not read",
            kind_of(path, &meta)
        ))
        .with_path(path));
    }
    let file =
        std::fs::File::open(path).map_err(|e| Error::config(format!("cannot read the {what}: {e}")).with_path(path))?;
    Ok(Box::new(std::io::BufReader::new(file)))
}

/// One line read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The input is used up.
    End,
    /// A line of white space only.
    Blank,
    /// A line's bytes, without its newline.
    Text(Vec<u8>),
    /// A line longer than the bound (never held whole).
    TooLong,
    /// The input could not be read further (why).
    Broken(String),
}

/// One line of at most `max` bytes, never holding more: a longer line is skipped to its end
/// when `skip` is set (a file, where the next line can be trusted), else reading stops where the
/// line passes `max` (standard input or a pipe, which may never end a line).
pub fn read_line(src: &mut dyn BufRead, max: u64, skip: bool) -> Line {
    let mut out = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match src.fill_buf() {
            Ok(b) => b,
            Err(e) => return Line::Broken(format!("cannot read: {e} (truncated or broken data)")),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long {
            if (out.len() + chunk.len()) as u64 > max {
                too_long = true;
                out = Vec::new();
                if !skip {
                    return Line::TooLong;
                }
            } else {
                out.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(buf.len());
        src.consume(used);
        if done.is_some() {
            break;
        }
    }
    match (any, too_long) {
        (false, _) => Line::End,
        (true, true) => Line::TooLong,
        _ if out.iter().all(u8::is_ascii_whitespace) => Line::Blank,
        _ => Line::Text(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bounded_and_devices_are_named() {
        let mut endless = std::io::BufReader::new(std::io::repeat(b'x'));
        assert_eq!(read_line(&mut endless, 1000, false), Line::TooLong);
        let mut r = std::io::BufReader::new(&b"a\n\n  \nbb\nlong line\nc"[..]);
        let lines: Vec<Line> = (0..7).map(|_| read_line(&mut r, 4, true)).collect();
        assert_eq!(
            lines,
            [
                Line::Text(b"a".to_vec()),
                Line::Blank,
                Line::Blank,
                Line::Text(b"bb".to_vec()),
                Line::TooLong,
                Line::Text(b"c".to_vec()),
                Line::End
            ]
        );
        #[cfg(unix)]
        {
            let e = open_list(Path::new("/dev/zero"), "input list").err().unwrap();
            assert!(e.to_string().contains("a character device"), "{e}");
            let d = std::env::temp_dir().join(format!("cetune-bounded-{}", std::process::id()));
            std::fs::create_dir_all(&d).unwrap();
            let link = d.join("w.yaml");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            let e = read_capped(&link, 10, "wrapper file").unwrap_err();
            assert!(e.to_string().contains("a character device (a symlink to /dev/zero)"), "{e}");
            std::fs::remove_dir_all(&d).unwrap();
        }
    }
}

//! A vector in fixed-size chunks: it grows a chunk at a time, never by
//! copying everything into one twice as large, so its spare room stays
//! under one chunk and growing never needs the old and the new copy at
//! once (a WebAssembly memory keeps its highest mark for good).

use crate::prelude::*;

const CHUNK: usize = 1024;

#[derive(Debug, Clone)]
pub struct Chunks<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunks<T> {
    fn default() -> Self {
        Chunks {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Chunks<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK)
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.chunks.get_mut(i / CHUNK)?.get_mut(i % CHUNK)
    }

    pub fn push(&mut self, item: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(item),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(item);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
    }

    /// Removes item `i`, moving the last item into its place.
    pub fn swap_remove(&mut self, i: usize) -> Option<T> {
        if i >= self.len {
            return None;
        }
        let last = self.chunks.last_mut()?.pop()?;
        if self.chunks.last().is_some_and(Vec::is_empty) {
            self.chunks.pop();
        }
        self.len -= 1;
        if i == self.len {
            return Some(last);
        }
        self.get_mut(i).map(|slot| core::mem::replace(slot, last))
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_push_read_and_swap_remove_across_chunks() {
        let mut c = Chunks::default();
        for n in 0..(CHUNK * 2 + 5) {
            c.push(n);
        }
        assert_eq!(
            (c.len(), c.get(CHUNK + 1)),
            (CHUNK * 2 + 5, Some(&(CHUNK + 1)))
        );
        assert_eq!(c.swap_remove(3), Some(3));
        assert_eq!(c.get(3), Some(&(CHUNK * 2 + 4)));
        for _ in 0..5 {
            c.swap_remove(0);
        }
        assert_eq!(c.len(), CHUNK * 2 - 1);
        assert_eq!(c.chunks.len(), 2);
        assert_eq!(c.swap_remove(c.len()), None);
        assert_eq!(c.iter().count(), c.len());
    }
}

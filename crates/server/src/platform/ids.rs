//! Identifiers of stored records: patients, accounts, screenings, analyses, reviews, shares, devices.
//!
//! UUID version 7 (RFC 9562, section 5.7): the first 48 bits are the Unix time in milliseconds, and
//! the `uuid` crate keeps the ids one process makes in the order it made them. Every list is
//! `ORDER BY created_at DESC, id DESC`; with random (version 4) ids, two records made in the same
//! millisecond (a fast server, a batch of uploads) came out in a random order. With these ids they
//! come out newest first, as the lists promise. The id says when the record was made, to the
//! millisecond: the same as its `created_at`, which its owner already sees.

/// A new record id: a version 7 UUID in its hyphenated lower-case form (36 characters), later
/// than every id this process made before.
pub fn new() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_made_one_after_another_sort_in_that_order() {
        let ids: Vec<String> = (0..10_000).map(|_| super::new()).collect();

        assert!(ids.windows(2).all(|w| w[0] < w[1]), "not in creation order");
        assert!(ids
            .iter()
            .all(|id| id.len() == 36 && id.as_bytes()[14] == b'7'));
    }
}

"""Full-text indexes: the analyzer, postings kept current per statement, the Lucene query syntax and BM25
scores in SQL (docs/adr/0017-full-text-indexes-bm25.md)."""

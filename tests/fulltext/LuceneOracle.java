// The oracle for tests/fulltext/test_lucene_oracle.py: real Lucene indexes a corpus as a Neo4j full-text
// index over two properties does (one document per element, one field per property that has a value,
// StandardAnalyzer with no stop words, BM25 k1 1.2 b 0.75) and runs each query as Neo4j parses it
// (classic MultiFieldQueryParser over the index's properties, default operator OR).
//
// Arguments: the documents file (id TAB title TAB body, `\N` for no value), the queries file (one a line),
// the number of hits per query. Prints `query-number TAB rank TAB id TAB score-bits` for each hit, or
// `query-number TAB ERROR TAB message` when the parser rejects the query.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

public class LuceneOracle {
  public static void main(String[] args) throws Exception {
    StandardAnalyzer analyzer = new StandardAnalyzer(CharArraySet.EMPTY_SET);
    BM25Similarity similarity = new BM25Similarity(1.2f, 0.75f);
    String[] fields = {"title", "body"};
    ByteBuffersDirectory directory = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(similarity);
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
        String[] parts = line.split("\t", -1);
        Document doc = new Document();
        doc.add(new StoredField("id", Long.parseLong(parts[0])));
        for (int i = 0; i < fields.length; i++) {
          if (!parts[i + 1].equals("\\N")) {
            doc.add(new TextField(fields[i], parts[i + 1], Field.Store.NO));
          }
        }
        writer.addDocument(doc);
      }
    }
    int hits = Integer.parseInt(args[2]);
    boolean explain = args.length > 3;
    try (DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      searcher.setSimilarity(similarity);
      List<String> queries = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
      StringBuilder out = new StringBuilder();
      for (int q = 0; q < queries.size(); q++) {
        Query query;
        try {
          query = new MultiFieldQueryParser(fields, analyzer).parse(queries.get(q));
        } catch (Exception e) {
          out.append(q).append("\tERROR\t").append(e.getClass().getSimpleName()).append('\n');
          continue;
        }
        if (explain) {
          out.append(q).append("\tREWRITE\t").append(searcher.rewrite(query)).append('\n');
        }
        ScoreDoc[] top = searcher.search(query, hits).scoreDocs;
        for (int rank = 0; rank < top.length; rank++) {
          long id = reader.document(top[rank].doc).getField("id").numericValue().longValue();
          out.append(q).append('\t').append(rank).append('\t').append(id).append('\t')
              .append(Float.floatToIntBits(top[rank].score)).append('\n');
        }
      }
      System.out.print(out);
    }
  }
}

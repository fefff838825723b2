// The oracle for tests/fulltext/test_lucene_oracle.py: real Lucene indexes a corpus as a Neo4j full-text
// index over two properties does (one document per element, one field per property that has a value,
// the index's analyzer, BM25 k1 1.2 b 0.75) and runs each query as Neo4j parses it (classic
// MultiFieldQueryParser over the index's properties and with its analyzer, default operator OR).
//
// Arguments: the documents file (id TAB title TAB body, `\N` for no value), the queries file (one a line:
// the analyzer's Neo4j name TAB the query), the number of hits per query. Prints
// `query-number TAB rank TAB id TAB score-bits` for each hit, or `query-number TAB ERROR TAB message` when
// the parser rejects the query. One index is built per analyzer the queries name.
//
// With `--terms ANALYZER FILE` it prints instead each line's terms as the analyzer makes them: for each
// term its position increment, U+0002 and the term, terms separated by U+0001.
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.core.StopAnalyzer;
import org.apache.lucene.analysis.core.UnicodeWhitespaceAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.ClassicAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.standard.UAX29URLEmailAnalyzer;
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
  static final String[] FIELDS = {"title", "body"};
  static final BM25Similarity SIMILARITY = new BM25Similarity(1.2f, 0.75f);

  // Neo4j's analyzer providers (org.neo4j.kernel.api.impl.fulltext.analyzer.providers)
  static Analyzer analyzer(String name) {
    switch (name) {
      case "standard-no-stop-words": return new StandardAnalyzer(CharArraySet.EMPTY_SET);
      case "standard": return new StandardAnalyzer(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
      case "english": return new EnglishAnalyzer();
      case "simple": return new SimpleAnalyzer();
      case "stop": return new StopAnalyzer(EnglishAnalyzer.getDefaultStopSet());
      case "whitespace": return new WhitespaceAnalyzer();
      case "unicode_whitespace": return new UnicodeWhitespaceAnalyzer();
      case "keyword": return new KeywordAnalyzer();
      case "cjk": return new CJKAnalyzer();
      case "classic": return new ClassicAnalyzer();
      case "url_or_email": return new UAX29URLEmailAnalyzer();
      default: throw new IllegalArgumentException(name);
    }
  }

  static DirectoryReader index(List<String> docs, Analyzer analyzer) throws Exception {
    ByteBuffersDirectory directory = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(SIMILARITY);
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      for (String line : docs) {
        String[] parts = line.split("\t", -1);
        Document doc = new Document();
        doc.add(new StoredField("id", Long.parseLong(parts[0])));
        for (int i = 0; i < FIELDS.length; i++) {
          if (!parts[i + 1].equals("\\N")) {
            doc.add(new TextField(FIELDS[i], parts[i + 1], Field.Store.NO));
          }
        }
        writer.addDocument(doc);
      }
    }
    return DirectoryReader.open(directory);
  }

  static void terms(Analyzer analyzer, List<String> lines) throws Exception {
    StringBuilder out = new StringBuilder();
    for (String line : lines) {
      try (TokenStream stream = analyzer.tokenStream("f", line)) {
        CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
        PositionIncrementAttribute increment = stream.addAttribute(PositionIncrementAttribute.class);
        stream.reset();
        String separator = "";
        while (stream.incrementToken()) {
          out.append(separator).append(increment.getPositionIncrement()).append('\u0002').append(term);
          separator = "\u0001";
        }
        stream.end();
      }
      out.append('\n');
    }
    new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8").print(out);
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("--terms")) {
      terms(analyzer(args[1]), Files.readAllLines(Paths.get(args[2]), StandardCharsets.UTF_8));
      return;
    }
    List<String> docs = Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8);
    int hits = Integer.parseInt(args[2]);
    Map<String, DirectoryReader> readers = new HashMap<>();
    List<String> queries = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder();
    for (int q = 0; q < queries.size(); q++) {
      String[] line = queries.get(q).split("\t", 2);
      Analyzer analyzer = analyzer(line[0]);
      if (!readers.containsKey(line[0])) {
        readers.put(line[0], index(docs, analyzer));
      }
      DirectoryReader reader = readers.get(line[0]);
      IndexSearcher searcher = new IndexSearcher(reader);
      searcher.setSimilarity(SIMILARITY);
      Query query;
      try {
        query = new MultiFieldQueryParser(FIELDS, analyzer).parse(line[1]);
      } catch (Exception e) {
        out.append(q).append("\tERROR\t").append(e.getClass().getSimpleName()).append('\n');
        continue;
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

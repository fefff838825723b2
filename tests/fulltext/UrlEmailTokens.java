// The oracle for tests/fulltext/test_url_email_oracle.py: the terms Lucene's UAX29URLEmailAnalyzer (Neo4j's
// `url_or_email`, `url` and `email` analyzers) gives each line of the input file, joined by U+0001, one
// line of output per input line. `\n` in an input line stands for a line break.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.standard.UAX29URLEmailAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

public class UrlEmailTokens {
  public static void main(String[] args) throws Exception {
    Analyzer analyzer = new UAX29URLEmailAnalyzer();
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
      try (TokenStream stream = analyzer.tokenStream("f", line.replace("\\n", "\n"))) {
        CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
        stream.reset();
        boolean first = true;
        while (stream.incrementToken()) {
          out.append(first ? "" : "\u0001").append(term);
          first = false;
        }
        stream.end();
      }
      out.append('\n');
    }
    System.out.print(out);
  }
}

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.transform.sax.SAXSource;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.XPathCompiler;
import net.sf.saxon.s9api.XPathExecutable;
import net.sf.saxon.s9api.XPathSelector;
import net.sf.saxon.s9api.XdmDestination;
import net.sf.saxon.s9api.XdmItem;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XsltExecutable;
import org.xml.sax.InputSource;
import org.xml.sax.XMLReader;

/**
 * The official schematrons (their XSLT form, as the KoSIT validator runs them) in Saxon-HE, for
 * src/validation/schematron-jvm.ts. SaxonJS needs 30-60 ms per invoice for the EN 16931 rules;
 * HotSpot, once warm, a few.
 *
 * Arguments: key=stylesheet.xslt ... Each stylesheet is compiled on first use.
 * Requests on stdin: a line "id key length", then length bytes of XML.
 * Answers on stdout, in any order (requests run on several threads): a line "id ok length" or
 * "id error length", then length bytes of UTF-8: for ok, one record per failed assert or
 * successful report (fields kind, id, flag, location, text separated by U+001F, records ended
 * by U+001E); for error, the message.
 */
public final class SchematronServer {
  private static final String SVRL = "http://purl.oclc.org/dsdl/svrl";
  private static final char UNIT = '\u001F';
  private static final char RECORD = '\u001E';

  private final Processor saxon = new Processor(false);
  private final Map<String, String> files = new ConcurrentHashMap<>();
  private final Map<String, XsltExecutable> compiled = new ConcurrentHashMap<>();
  private final XPathExecutable entries;
  private final XPathExecutable text;
  private final SAXParserFactory parsers = SAXParserFactory.newInstance();
  private final OutputStream out = new BufferedOutputStream(System.out, 1 << 16);

  private SchematronServer(String[] args) throws Exception {
    for (String arg : args) {
      int eq = arg.indexOf('=');
      files.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    XPathCompiler xpath = saxon.newXPathCompiler();
    xpath.declareNamespace("svrl", SVRL);
    entries = xpath.compile("//(svrl:failed-assert | svrl:successful-report)");
    text = xpath.compile("normalize-space(string-join(svrl:text, ' '))");
    // Invoices need no DTD: a document that declares one is refused, and nothing external is read.
    parsers.setNamespaceAware(true);
    parsers.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    parsers.setFeature("http://xml.org/sax/features/external-general-entities", false);
    parsers.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
  }

  public static void main(String[] args) throws Exception {
    SchematronServer server = new SchematronServer(args);
    int threads = Math.max(1, Integer.getInteger("threads", Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    DataInputStream in = new DataInputStream(System.in);
    for (String header = readLine(in); header != null; header = readLine(in)) {
      String[] parts = header.split(" ");
      byte[] xml = new byte[Integer.parseInt(parts[2])];
      in.readFully(xml);
      pool.execute(() -> server.answer(parts[0], parts[1], xml));
    }
    // stdin closed: the caller is gone or stopping; finish what was asked and end.
    pool.shutdown();
  }

  private void answer(String id, String key, byte[] xml) {
    String status = "ok";
    String body;
    try {
      body = check(key, xml);
    } catch (Exception | StackOverflowError e) {
      status = "error";
      body = String.valueOf(e.getMessage() == null ? e : e.getMessage());
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    byte[] head = (id + " " + status + " " + bytes.length + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (out) {
      try {
        out.write(head);
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        System.exit(1);
      }
    }
  }

  private String check(String key, byte[] xml) throws Exception {
    XsltExecutable stylesheet = compiled.computeIfAbsent(key, this::compile);
    XMLReader reader = parsers.newSAXParser().getXMLReader();
    XdmDestination result = new XdmDestination();
    stylesheet.load30().transform(new SAXSource(reader, new InputSource(new ByteArrayInputStream(xml))), result);
    XdmNode svrl = result.getXdmNode();
    XPathSelector select = entries.load();
    select.setContextItem(svrl);
    StringBuilder records = new StringBuilder();
    for (XdmItem item : select) {
      XdmNode entry = (XdmNode) item;
      XPathSelector message = text.load();
      message.setContextItem(entry);
      records
          .append(field(entry.getNodeName().getLocalName())).append(UNIT)
          .append(field(entry.getAttributeValue(new QName("id")))).append(UNIT)
          .append(field(entry.getAttributeValue(new QName("flag")))).append(UNIT)
          .append(field(entry.getAttributeValue(new QName("location")))).append(UNIT)
          .append(field(message.evaluateSingle().getStringValue())).append(RECORD);
    }
    return records.toString();
  }

  private XsltExecutable compile(String key) {
    String file = files.get(key);
    if (file == null) throw new IllegalArgumentException("unknown rule set " + key);
    try {
      return saxon.newXsltCompiler().compile(new StreamSource(new File(file)));
    } catch (Exception e) {
      throw new IllegalStateException("cannot compile " + file + ": " + e.getMessage(), e);
    }
  }

  /** The separators never occur in XML text (they are not allowed characters in XML 1.0). */
  private static String field(String value) {
    return value == null ? "" : value;
  }

  private static String readLine(DataInputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) return line.length() == 0 ? null : line.toString();
      line.append((char) b);
    }
    return line.toString();
  }
}

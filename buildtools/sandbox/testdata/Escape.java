import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Hostile fixture for the sandbox tests: each argument OP=ARG attempts one escape and prints one
 * line "OP ARG: RESULT". A result that starts with "denied" is an exception the attempt got.
 */
public class Escape {
  public static void main(String[] args) {
    for (String a : args) {
      int eq = a.indexOf('=');
      String op = eq < 0 ? a : a.substring(0, eq);
      String arg = eq < 0 ? "" : a.substring(eq + 1);
      String result;
      try {
        result = run(op, arg);
      } catch (Throwable t) {
        result = "denied " + t;
      }
      System.out.println(op + " " + arg + ": " + result.replace('\n', ' '));
      System.out.flush();
    }
  }

  static String run(String op, String arg) throws Exception {
    switch (op) {
      case "env": {
        String v = System.getenv(arg);
        return v == null ? "absent" : "present " + v;
      }
      case "prop":
        return String.valueOf(System.getProperty(arg));
      case "read":
        return "read " + new String(Files.readAllBytes(Paths.get(arg)), StandardCharsets.UTF_8).trim();
      case "list": {
        String[] names = new File(arg).list();
        if (names == null) {
          return "denied cannot list";
        }
        List<String> l = new ArrayList<>();
        Collections.addAll(l, names);
        Collections.sort(l);
        return "list " + l;
      }
      case "write":
        Files.write(Paths.get(arg), "planted".getBytes(StandardCharsets.UTF_8));
        return "wrote";
      case "rewrite": {
        // Writes a file's own content back: harmless where it works, so the test may try it on
        // the host's sysctls.
        byte[] b = Files.readAllBytes(Paths.get(arg));
        try (OutputStream o = new FileOutputStream(arg)) {
          o.write(b);
        }
        return "wrote";
      }
      case "mkdir":
        Files.createDirectories(Paths.get(arg));
        return "made";
      case "connect":
        try (Socket s = new Socket()) {
          s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(arg)), 3000);
          return "connected";
        }
      case "interfaces": {
        List<String> names = new ArrayList<>();
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
          names.add(n.getName());
        }
        Collections.sort(names);
        return "interfaces " + names;
      }
      case "spawn": {
        Process p = new ProcessBuilder("sleep", arg).start();
        return p.isAlive() ? "spawned" : "not spawned";
      }
      case "wait": {
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        return "resumed " + line;
      }
      case "fill": {
        // Writes until the file system says no; stops at 1 GiB, far past any bound the tests set.
        byte[] buf = new byte[1 << 16];
        long n = 0;
        try (OutputStream o = new FileOutputStream(arg)) {
          while (n < (1L << 30)) {
            o.write(buf);
            n += buf.length;
          }
          return "unbounded " + n;
        } catch (IOException e) {
          return "stopped " + n + " " + e.getMessage();
        }
      }
      case "fd":
        try (OutputStream o = new FileOutputStream("/proc/self/fd/" + arg)) {
          o.write("hello through fd\n".getBytes(StandardCharsets.UTF_8));
        }
        return "wrote";
      case "class":
        Class.forName(arg);
        return "loaded";
      default:
        return "unknown op";
    }
  }
}

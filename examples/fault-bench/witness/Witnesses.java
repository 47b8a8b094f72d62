import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

import org.faultbench.account.BankAccount;
import org.faultbench.account.Inventory;
import org.faultbench.collect.Histogram;
import org.faultbench.collect.IntStack;
import org.faultbench.collect.Intervals;
import org.faultbench.collect.LruCache;
import org.faultbench.collect.Pagination;
import org.faultbench.collect.RingBuffer;
import org.faultbench.collect.Search;
import org.faultbench.collect.SortedArrays;
import org.faultbench.expr.Brackets;
import org.faultbench.expr.ExpressionEvaluator;
import org.faultbench.expr.InfixEvaluator;
import org.faultbench.expr.RpnCalculator;
import org.faultbench.graph.Graphs;
import org.faultbench.graph.LinkedLists;
import org.faultbench.graph.ListNode;
import org.faultbench.graph.Node;
import org.faultbench.graph.Paths;
import org.faultbench.graph.SpanningTree;
import org.faultbench.graph.Vertex;
import org.faultbench.numeric.Bits;
import org.faultbench.numeric.Combinatorics;
import org.faultbench.numeric.Doubles;
import org.faultbench.numeric.Fraction;
import org.faultbench.numeric.Interest;
import org.faultbench.numeric.Matrix;
import org.faultbench.numeric.NumberTheory;
import org.faultbench.numeric.Stats;
import org.faultbench.sched.Scheduler;
import org.faultbench.sched.Task;
import org.faultbench.sched.TokenBucket;
import org.faultbench.text.CsvSplitter;
import org.faultbench.text.Luhn;
import org.faultbench.text.RomanNumerals;
import org.faultbench.text.Slug;
import org.faultbench.text.TextUtils;
import org.faultbench.text.Tokenizer;
import org.faultbench.text.Validators;
import org.faultbench.text.Versions;
import org.faultbench.text.WordWrap;
import org.faultbench.time.DateRange;
import org.faultbench.time.Durations;

/**
 * One witness per fault of faults.json: a static method that returns normally on the fixed
 * code and throws (or hangs) on the code with that fault. They prove each fault can be told
 * apart by a test; they are not in the Maven test sources, so the benchmark's generated suites
 * never see them.
 */
final class Witnesses {

    private Witnesses() {
    }

    private static void eq(Object expected, Object actual) {
        if (!Objects.deepEquals(expected, actual)) {
            throw new AssertionError("expected " + str(expected) + " but was " + str(actual));
        }
    }

    private static String str(Object o) {
        return o instanceof Object[] ? Arrays.deepToString((Object[]) o) : o instanceof int[] ? Arrays.toString((int[]) o) : String.valueOf(o);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static void throwsIllegalArgument(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException expected) {
            return;
        }
        throw new AssertionError("no IllegalArgumentException");
    }

    static void bankAccountWithdrawAll() {
        BankAccount a = new BankAccount("ann", 50);
        a.deposit(100);
        a.withdraw(150);
        eq(-50L, a.getBalance());
    }

    static void bankAccountTransfer() {
        BankAccount a = new BankAccount("ann", 0);
        BankAccount b = new BankAccount("bob", 0);
        a.deposit(100);
        a.transferTo(b, 30);
        eq(70L, a.getBalance());
        eq(30L, b.getBalance());
    }

    static void inventoryPartialRemove() {
        Inventory inv = new Inventory();
        inv.add("bolt", 10);
        inv.remove("bolt", 3);
        eq(7, inv.quantity("bolt"));
    }

    static void tokenBucketCapacity() {
        TokenBucket b = new TokenBucket(2, 1.0, 0);
        check(b.tryAcquire(100_000), "first");
        check(b.tryAcquire(100_000), "second");
        check(!b.tryAcquire(100_000), "a third token past the capacity");
    }

    static void schedulerHighestFirst() {
        List<Task> sorted = Scheduler.byPriority(Arrays.asList(new Task("low", 1, 1), new Task("high", 5, 1)));
        eq("high", sorted.get(0).getName());
    }

    static void ringBufferAddAfterPoll() {
        RingBuffer rb = new RingBuffer(3);
        rb.add(1);
        rb.poll();
        rb.add(2);
        rb.add(3);
        eq(new int[] {2, 3}, rb.toArray());
    }

    static void ringBufferGetWrapped() {
        RingBuffer rb = new RingBuffer(3);
        rb.add(1);
        rb.add(2);
        rb.poll();
        eq(2, rb.get(0));
    }

    static void lruCacheGetRefreshes() {
        LruCache<String, Integer> c = new LruCache<>(2);
        c.put("a", 1);
        c.put("b", 2);
        c.get("a");
        c.put("c", 3);
        eq(Arrays.asList("a", "c"), c.keys());
    }

    static void lruCacheFillsCapacity() {
        LruCache<String, Integer> c = new LruCache<>(2);
        c.put("a", 1);
        c.put("b", 2);
        eq(2, c.size());
    }

    static void intStackGrows() {
        IntStack s = new IntStack();
        for (int i = 1; i <= 5; i++) {
            s.push(i);
        }
        eq(5, s.pop());
    }

    static void intStackPopTop() {
        IntStack s = new IntStack();
        s.push(1);
        s.push(2);
        eq(2, s.pop());
    }

    static void binarySearchSingle() {
        eq(0, Search.binarySearch(new int[] {5}, 5));
    }

    static void lowerBoundFirstEqual() {
        eq(1, Search.lowerBound(new int[] {1, 2, 2, 3}, 2));
    }

    static void mergeUneven() {
        eq(new int[] {1, 2}, SortedArrays.merge(new int[] {1}, new int[] {2}));
    }

    static void histogramNegative() {
        SortedMap<Integer, Integer> want = new TreeMap<>();
        want.put(-1, 1);
        eq(want, Histogram.bucketCounts(Arrays.asList(-1), 10));
    }

    static void mostFrequentTie() {
        eq("a", Histogram.mostFrequent(Arrays.asList("b", "a")));
    }

    static void intervalsTouching() {
        eq(new int[][] {{1, 5}}, Intervals.merge(new int[][] {{1, 3}, {3, 5}}));
    }

    static void pageCountExact() {
        eq(2, Pagination.pageCount(10, 5));
    }

    static void pageShortLast() {
        eq(Arrays.asList(3), Pagination.page(Arrays.asList(1, 2, 3), 1, 2));
    }

    static void tokenizerNameWithDigit() {
        eq(Arrays.asList("x2", "+", "1"), Tokenizer.tokenize("x2 + 1"));
    }

    static void csvQuotedLast() {
        eq(Arrays.asList("a", "b"), CsvSplitter.split("a,\"b\""));
    }

    static void toRomanRepeats() {
        eq("III", RomanNumerals.toRoman(3));
    }

    static void fromRomanRepeats() {
        eq(2, RomanNumerals.fromRoman("II"));
    }

    static void padLeftWidth() {
        eq("007", TextUtils.padLeft("7", 3, '0'));
    }

    static void truncateExact() {
        eq("abcde", TextUtils.truncate("abcde", 5));
    }

    static void palindromeCase() {
        check(TextUtils.isPalindrome("Aa"), "Aa is a palindrome");
    }

    static void escapeJsonSpace() {
        eq("a b", TextUtils.escapeJson("a b"));
    }

    static void wrapExactWidth() {
        eq(Arrays.asList("ab cd"), WordWrap.wrap("ab cd", 5));
    }

    static void usernameLeadingDigit() {
        check(!Validators.isValidUsername("1abc"), "1abc is not a user name");
    }

    static void ipv4TrailingDot() {
        check(!Validators.isValidIPv4("1.2.3.4."), "1.2.3.4. is not an address");
    }

    static void slugCollapses() {
        eq("a-b", Slug.slugify("a, b"));
    }

    static void versionsLonger() {
        check(Versions.compare("1.0.1", "1.0") > 0, "1.0.1 is after 1.0");
    }

    static void luhnFirstDigit() {
        check(Luhn.isValid("79927398713"), "79927398713 passes the Luhn check");
    }

    static void averageLarge() {
        eq((double) Integer.MAX_VALUE, Stats.average(new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE}));
    }

    static void medianEven() {
        eq(1.5, Stats.median(Arrays.asList(2, 1)));
    }

    static void gcdNegative() {
        eq(4, NumberTheory.gcd(-4, 0));
    }

    static void lcmLarge() {
        eq(9_999_900_000L, NumberTheory.lcm(100_000, 99_999));
    }

    static void isPrimeSquare() {
        check(!NumberTheory.isPrime(9), "9 is not prime");
    }

    static void powerSetSize() {
        eq(2, Combinatorics.powerSet(Arrays.asList(1)).size());
    }

    static void permutationsTwo() {
        eq(Arrays.asList("ab", "ba"), Combinatorics.permutations("ab"));
    }

    static void matrixMultiply() {
        eq(new int[][] {{19, 22}, {43, 50}}, Matrix.multiply(new int[][] {{1, 2}, {3, 4}}, new int[][] {{5, 6}, {7, 8}}));
    }

    static void transposeRow() {
        eq(new int[][] {{1}, {2}, {3}}, Matrix.transpose(new int[][] {{1, 2, 3}}));
    }

    static void compoundFivePercent() {
        eq(105.0, Interest.compound(100, 5, 1));
    }

    static void approxEqualLarger() {
        check(Doubles.approxEqual(100, 111, 0.1, 0), "111 is within 10% of 111 from 100");
    }

    static void sqrtSmall() {
        double r = Doubles.sqrt(1e-6, 1e-6);
        check(Math.abs(r - 1e-3) < 1e-5, "sqrt(1e-6) = " + r);
    }

    static void fractionPlus() {
        eq(new Fraction(5, 6), new Fraction(1, 2).plus(new Fraction(1, 3)));
    }

    static void fractionNegative() {
        eq("-1/2", new Fraction(-2, 4).toString());
    }

    static void countOnesNegative() {
        eq(32, Bits.countOnes(-1));
    }

    static void overlapsSharedDay() {
        check(DateRange.of("2024-01-01", "2024-01-05").overlaps(DateRange.of("2024-01-05", "2024-01-09")), "they share Jan 5");
    }

    static void intersectionInside() {
        DateRange inner = DateRange.of("2024-01-03", "2024-01-05");
        eq(inner, DateRange.of("2024-01-01", "2024-01-10").intersection(inner));
    }

    static void durationsHours() {
        eq("1h 02m 03s", Durations.format(3723));
    }

    static void distanceShortest() {
        Node a = new Node("a");
        Node b = new Node("b");
        Node c = new Node("c");
        Node e = new Node("e");
        Node g = new Node("g");
        a.connect(b).connect(c);
        c.connect(e);
        e.connect(g);
        b.connect(g);
        eq(2, Graphs.distance(a, g));
    }

    static void topologicalCycle() {
        Node a = new Node("a");
        Node b = new Node("b");
        Node c = new Node("c");
        a.connect(b);
        b.connect(c);
        c.connect(b);
        throwsIllegalArgument(() -> Graphs.topologicalOrder(Arrays.asList(a)));
    }

    static void rpnSubtract() {
        eq(-1L, RpnCalculator.evaluate(Arrays.asList("3", "4", "-")));
    }

    static void expressionTrailing() {
        throwsIllegalArgument(() -> ExpressionEvaluator.evaluate("1 2"));
    }

    static void reachableChain() {
        Node a = new Node("a");
        Node b = new Node("b");
        Node c = new Node("c");
        a.connect(b);
        b.connect(c);
        eq(Arrays.asList(a, b, c), new java.util.ArrayList<>(Graphs.reachable(a)));
    }

    static void shortestPathChain() {
        Node a = new Node("a");
        Node b = new Node("b");
        Node c = new Node("c");
        a.connect(b);
        b.connect(c);
        eq(Arrays.asList(a, b, c), Graphs.shortestPath(a, c));
    }

    static void componentsDiamond() {
        Node a = new Node("a");
        Node b = new Node("b");
        Node c = new Node("c");
        Node d = new Node("d");
        a.connect(b).connect(c);
        b.connect(d);
        c.connect(d);
        eq(1, Graphs.componentCount(Arrays.asList(a, b, c, d)));
    }

    static void dijkstraLaterShorter() {
        Vertex a = new Vertex("a");
        Vertex b = new Vertex("b");
        Vertex c = new Vertex("c");
        Vertex d = new Vertex("d");
        a.connect(b, 1).connect(c, 2);
        b.connect(d, 5);
        c.connect(d, 1);
        eq(3L, Paths.distance(a, d));
    }

    static void primChain() {
        Vertex a = new Vertex("a");
        Vertex b = new Vertex("b");
        Vertex c = new Vertex("c");
        a.connect(b, 1);
        b.connect(c, 2);
        eq(3L, SpanningTree.weight(a));
    }

    static void floydChainOfThree() {
        ListNode a = new ListNode(1);
        ListNode b = new ListNode(2);
        ListNode c = new ListNode(3);
        a.setNext(b);
        b.setNext(c);
        eq(false, LinkedLists.hasCycle(a));
    }

    static void reverseChain() {
        ListNode a = new ListNode(1);
        ListNode b = new ListNode(2);
        ListNode c = new ListNode(3);
        a.setNext(b);
        b.setNext(c);
        check(LinkedLists.reverse(a) == c, "the new head is the last cell");
    }

    static void infixLeftAssociative() {
        eq(3L, InfixEvaluator.evaluate(Arrays.<Object>asList(6, "-", 2, "-", 1)));
    }

    static void bracketsUnclosed() {
        throwsIllegalArgument(() -> Brackets.maxDepth(Arrays.<Object>asList("(", 1)));
    }
}

package llm

import (
	"strings"
	"testing"
)

// jupiterClass is the answer the model gave on the Gradle example (JUnit 4) in its first
// attempts: a JUnit 5 class.
const jupiterClass = `package org.acme.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PricingAdverTest {
    private int unit;

    @BeforeEach
    void setUp() {
        unit = 100;
    }

    @Test
    @DisplayName("ten items")
    void tenItemsGetTenPercentOff() {
        assertEquals(900, Pricing.orderPrice(unit, 10), "ten items, " + "10% off");
        assertEquals(2.5, Pricing.ratio(5, 2), 1e-9);
    }

    @Test
    static void negative() {
        assertThrows(IllegalArgumentException.class, () -> Pricing.orderPrice(-1, 1), "negative");
        org.junit.jupiter.api.Assertions.assertTrue(Pricing.orderPrice(1, 1) > 0);
    }
}
`

func TestConvertJUnit5To4(t *testing.T) {
	out, changed := ConvertJUnit(jupiterClass, 4)
	if !changed {
		t.Fatal("nothing converted")
	}
	for _, want := range []string{
		"import static org.junit.Assert.assertEquals;",
		"import static org.junit.Assert.assertThrows;",
		"import org.junit.Before;",
		"import org.junit.Test;",
		"public class PricingAdverTest {",
		"    @Before\n    public void setUp() {",
		"    public void tenItemsGetTenPercentOff() {",
		`assertEquals("ten items, " + "10% off", 900, Pricing.orderPrice(unit, 10));`,
		"assertEquals(2.5, Pricing.ratio(5, 2), 1e-9);", // a delta is no message
		`assertThrows("negative", IllegalArgumentException.class, () -> Pricing.orderPrice(-1, 1));`,
		"org.junit.Assert.assertTrue(Pricing.orderPrice(1, 1) > 0);",
		"    public static void negative() {",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("converted class lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "jupiter") || strings.Contains(out, "DisplayName") {
		t.Errorf("Jupiter left in:\n%s", out)
	}
	// A JUnit 4 class in a JUnit 4 project is left alone; converting back gives JUnit 5.
	if again, changed := ConvertJUnit(out, 4); changed || again != out {
		t.Errorf("a JUnit 4 class changed again")
	}
	back, changed := ConvertJUnit(out, 5)
	for _, want := range []string{"import org.junit.jupiter.api.BeforeEach;", "@BeforeEach", `assertEquals(900, Pricing.orderPrice(unit, 10), "ten items, " + "10% off");`,
		"org.junit.jupiter.api.Assertions.assertTrue("} {
		if !changed || !strings.Contains(back, want) {
			t.Errorf("back to JUnit 5 lacks %q:\n%s", want, back)
		}
	}
}

func TestConvertJUnit4To5ExpectedException(t *testing.T) {
	src := `import org.junit.Test;
import static org.junit.Assert.*;

public class T {
    @Test(expected = IllegalArgumentException.class)
    public void rejects() {
        Calc.clamp(1, 5, 0);
    }
}
`
	out, changed := ConvertJUnit(src, 5)
	if !changed || strings.Contains(out, "expected =") || !strings.Contains(out, "assertThrows(IllegalArgumentException.class, () -> {") ||
		!strings.Contains(out, "import org.junit.jupiter.api.Test;") || !strings.Contains(out, "Calc.clamp(1, 5, 0);") {
		t.Errorf("converted:\n%s", out)
	}
	if _, err := parseJava(out); err != nil {
		t.Fatal(err)
	}
}

func TestParsePossibleBugs(t *testing.T) {
	reply := "The first test was wrong; here it is corrected.\n```java\nclass X {}\n```\n" +
		"```json\n{\"possibleBugs\": [{\"test\": \"b\", \"reason\": \"a negative price is accepted\"}, {\"test\": \"c\", \"reason\": \"\"}, {\"test\": 3, \"reason\": \"x\"},]}\n```"
	got := ParsePossibleBugs(reply)
	if len(got) != 1 || got["b"] != "a negative price is accepted" {
		t.Errorf("got %v", got)
	}
	if got := ParsePossibleBugs("no JSON here"); len(got) != 0 {
		t.Errorf("got %v from prose", got)
	}
}

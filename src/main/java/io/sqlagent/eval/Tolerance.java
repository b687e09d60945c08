package io.sqlagent.eval;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * When two numbers count as equal: {@code |a − b| ≤ max(absolute, relative × max(|a|, |b|))}. The
 * defaults (absolute 0.005, relative 1e-6) let an answer rounded to cents match the exact value and
 * ignore floating-point noise, but tell 5.65 from 5.66.
 */
public record Tolerance(BigDecimal absolute, BigDecimal relative) {

    public static final Tolerance DEFAULT = new Tolerance(new BigDecimal("0.005"), new BigDecimal("0.000001"));

    public boolean equal(BigDecimal a, BigDecimal b) {
        BigDecimal difference = a.subtract(b).abs();
        BigDecimal scale = a.abs().max(b.abs()).multiply(relative, MathContext.DECIMAL64);
        return difference.compareTo(absolute.max(scale)) <= 0;
    }
}

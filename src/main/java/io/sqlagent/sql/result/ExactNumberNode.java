package io.sqlagent.sql.result;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.NumericNode;

/**
 * A number exactly as PostgreSQL wrote it ({@code 270.00}, {@code 12345678901234567890.5},
 * {@code 1e+20}), written back as the same characters. Jackson's own {@code DecimalNode} is written
 * through {@link BigDecimal#toString()}, which puts {@code 0.0000001} or a value read with a
 * negative scale into exponent form ({@code 1E-7}, {@code 2.7E+2}), and its default node factory
 * strips trailing zeros ({@code 270.00} becomes {@code 2.7E+2}): a reader would see another spelling
 * or lose the scale PostgreSQL reported. This node keeps the text.
 */
public final class ExactNumberNode extends NumericNode {

    private static final long serialVersionUID = 1L;

    private final String text;
    private final BigDecimal value;

    private ExactNumberNode(String text) {
        this.text = text;
        this.value = new BigDecimal(text);
    }

    /** A node for a JSON number literal (as PostgreSQL's {@code to_json} or a driver wrote it). */
    public static ExactNumberNode of(String literal) {
        return new ExactNumberNode(literal);
    }

    /** A node for an exact decimal, written without exponent and with its scale. */
    public static ExactNumberNode of(BigDecimal value) {
        return new ExactNumberNode(value.toPlainString());
    }

    private boolean integral() {
        return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
    }

    @Override
    public JsonToken asToken() {
        return integral() ? JsonToken.VALUE_NUMBER_INT : JsonToken.VALUE_NUMBER_FLOAT;
    }

    @Override
    public JsonParser.NumberType numberType() {
        return integral() ? JsonParser.NumberType.BIG_INTEGER : JsonParser.NumberType.BIG_DECIMAL;
    }

    @Override
    public Number numberValue() {
        return value;
    }

    @Override
    public boolean isIntegralNumber() {
        return integral();
    }

    @Override
    public boolean isFloatingPointNumber() {
        return !integral();
    }

    @Override
    public boolean isBigDecimal() {
        return !integral();
    }

    @Override
    public boolean isBigInteger() {
        return integral();
    }

    @Override
    public int intValue() {
        return value.intValue();
    }

    @Override
    public long longValue() {
        return value.longValue();
    }

    @Override
    public double doubleValue() {
        return value.doubleValue();
    }

    @Override
    public BigDecimal decimalValue() {
        return value;
    }

    @Override
    public BigInteger bigIntegerValue() {
        return value.toBigInteger();
    }

    @Override
    public boolean canConvertToInt() {
        return integral() && value.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0
                && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0;
    }

    @Override
    public boolean canConvertToLong() {
        return integral() && value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0
                && value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
    }

    @Override
    public String asText() {
        return text;
    }

    @Override
    public void serialize(JsonGenerator generator, SerializerProvider provider) throws IOException {
        generator.writeNumber(text);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExactNumberNode number && number.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}

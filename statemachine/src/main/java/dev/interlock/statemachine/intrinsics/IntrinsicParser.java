package dev.interlock.statemachine.intrinsics;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser of the intrinsic grammar: {@code States.Name(arg, …)} where an argument is a nested
 * call, a path, a single-quoted string (escapes {@code \' \\ \{ \}}), a number, true, false or null.
 */
public final class IntrinsicParser {

    private final String text;
    private int at;

    private IntrinsicParser(String text) {
        this.text = text;
    }

    /** Whether the text looks like an intrinsic call (as opposed to a path) without parsing it fully. */
    public static boolean looksLikeCall(String text) {
        return text.startsWith("States.");
    }

    /** Parses a whole field value; it must be exactly one function call. */
    public static Intrinsic.Call parse(String text) {
        IntrinsicParser parser = new IntrinsicParser(text);
        parser.skipSpaces();
        Intrinsic.Call call = parser.call();
        parser.skipSpaces();
        if (parser.at != text.length()) {
            throw parser.error("unexpected text after the call");
        }
        return call;
    }

    private Intrinsic.Call call() {
        int start = at;
        while (at < text.length() && (Character.isLetterOrDigit(peek()) || peek() == '.')) {
            at++;
        }
        String name = text.substring(start, at);
        if (!name.startsWith("States.") || name.length() == "States.".length()) {
            throw error("expected a States.<Function> name");
        }
        skipSpaces();
        expect('(');
        List<Intrinsic> args = new ArrayList<>();
        skipSpaces();
        if (peek() != ')') {
            while (true) {
                skipSpaces();
                args.add(argument());
                skipSpaces();
                if (peek() == ',') {
                    at++;
                    continue;
                }
                break;
            }
        }
        expect(')');
        return new Intrinsic.Call(name, args);
    }

    private Intrinsic argument() {
        char c = peek();
        if (c == '\'') {
            return string();
        }
        if (c == '$') {
            return path();
        }
        if (c == '-' || Character.isDigit(c)) {
            return number();
        }
        if (text.startsWith("States.", at)) {
            return call();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, at) && !Character.isLetterOrDigit(charAt(at + word.length()))) {
                at += word.length();
                return switch (word) {
                    case "true" -> new Intrinsic.BooleanLiteral(true);
                    case "false" -> new Intrinsic.BooleanLiteral(false);
                    default -> new Intrinsic.NullLiteral();
                };
            }
        }
        throw error("expected an argument");
    }

    private Intrinsic.StringLiteral string() {
        expect('\'');
        StringBuilder value = new StringBuilder();
        int start = at;
        while (true) {
            if (at >= text.length()) {
                throw error("unterminated string literal");
            }
            char c = text.charAt(at++);
            if (c == '\\') {
                if (at >= text.length()) {
                    throw error("dangling escape");
                }
                value.append(text.charAt(at++));
            } else if (c == '\'') {
                return new Intrinsic.StringLiteral(value.toString(), text.substring(start, at - 1));
            } else {
                value.append(c);
            }
        }
    }

    /** A path runs to the next top-level comma or closing parenthesis; brackets and quotes may contain both. */
    private Intrinsic.PathReference path() {
        int start = at;
        int brackets = 0;
        while (at < text.length()) {
            char c = peek();
            if (c == '[') {
                brackets++;
            } else if (c == ']') {
                brackets--;
            } else if ((c == '\'' || c == '"') && brackets > 0) {
                int close = text.indexOf(c, at + 1);
                if (close < 0) {
                    throw error("unterminated quote in path");
                }
                at = close;
            } else if (brackets == 0 && (c == ',' || c == ')')) {
                break;
            }
            at++;
        }
        return new Intrinsic.PathReference(text.substring(start, at).strip());
    }

    private Intrinsic.NumberLiteral number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        while (at < text.length() && (Character.isDigit(peek()) || peek() == '.' || peek() == 'e' || peek() == 'E')) {
            at++;
        }
        try {
            return new Intrinsic.NumberLiteral(new BigDecimal(text.substring(start, at)));
        } catch (NumberFormatException e) {
            throw error("malformed number");
        }
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private void skipSpaces() {
        while (at < text.length() && Character.isWhitespace(peek())) {
            at++;
        }
    }

    private char peek() {
        return charAt(at);
    }

    private char charAt(int i) {
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private IntrinsicException error(String message) {
        return new IntrinsicException("Cannot parse intrinsic '" + text + "' at position " + at + ": " + message);
    }
}

package io.sqlagent.jsonschema;

/**
 * Where a value sits inside the validated document, rendered only when a violation needs it so
 * that validating a correct call builds no strings.
 */
final class ValuePath {

    static final ValuePath ROOT = new ValuePath(null, null, -1);

    private final ValuePath parent;
    private final String name;
    private final int index;
    // Static paths are shared between calls and threads; recomputing on a race is harmless.
    private String rendered;

    private ValuePath(ValuePath parent, String name, int index) {
        this.parent = parent;
        this.name = name;
        this.index = index;
    }

    static ValuePath property(ValuePath parent, String name) {
        return new ValuePath(parent, name, -1);
    }

    static ValuePath element(ValuePath parent, int index) {
        return new ValuePath(parent, null, index);
    }

    /** The path of a value known as {@code name} or {@code [index]} of {@code parent}, or {@code parent} itself. */
    static ValuePath of(ValuePath parent, String name, int index) {
        if (name != null) {
            return property(parent, name);
        }
        return index >= 0 ? element(parent, index) : parent;
    }

    String render() {
        String text = rendered;
        if (text == null) {
            if (parent == null) {
                text = "(root)";
            } else if (name != null) {
                text = parent == ROOT ? name : parent.render() + "." + name;
            } else {
                text = parent.render() + "[" + index + "]";
            }
            rendered = text;
        }
        return text;
    }

    @Override
    public String toString() {
        return render();
    }
}

package com.acme.report;

/** What every report prints first. */
public abstract class Base {
    protected String header() {
        return "report";
    }

    /** Not inherited: a subclass's tag() is another's. */
    private String tag() {
        return "base";
    }

    /** Base's own secret: private, so not a member type of its subclasses. */
    private static class Secret {
        String tell() {
            return "base";
        }
    }

    /** A heading: a member type its subclasses see by its simple name. */
    protected static class Heading {
        String text() {
            return "=";
        }
    }
}

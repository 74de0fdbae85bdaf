package com.acme.report;

/** What every report prints first. */
public abstract class Base {
    protected String header() {
        return "report";
    }

    /** A heading: a member type its subclasses see by its simple name. */
    protected static class Heading {
        String text() {
            return "=";
        }
    }
}

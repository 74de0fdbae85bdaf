package com.acme.report;

/** What every report prints first. */
public abstract class Base {
    protected String header() {
        return "report";
    }
}

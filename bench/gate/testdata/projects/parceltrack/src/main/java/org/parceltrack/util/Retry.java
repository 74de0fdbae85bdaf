package org.parceltrack.util;

import java.io.IOException;

/** Retries a call on IOException with exponential backoff: 0.5 s, 1 s, 2 s, ... */
public final class Retry {
    private Retry() {}

    public interface Call<T> {
        T run() throws IOException, InterruptedException;
    }

    public static <T> T withBackoff(int attempts, Call<T> call) throws IOException, InterruptedException {
        long delay = 500;
        IOException last = null;
        for (int i = 0; i < attempts; i++) {
            try {
                return call.run();
            } catch (IOException e) {
                last = e;
                Thread.sleep(delay);
                delay *= 2;
            }
        }
        throw last;
    }
}

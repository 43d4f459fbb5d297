package io.upic.liftride.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerAddressTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "localhost, http://localhost:8080/liftride",
        "10.0.0.5:9090, http://10.0.0.5:9090/liftride",
        "ec2-1-2-3-4.compute.amazonaws.com, http://ec2-1-2-3-4.compute.amazonaws.com:8080/liftride",
        "http://127.0.0.1:8080/liftride, http://127.0.0.1:8080/liftride",
        "http://127.0.0.1:8080/liftride/, http://127.0.0.1:8080/liftride",
        "https://api.example.org/lr, https://api.example.org/lr",
        "http://host:8080, http://host:8080",
        "'[::1]', 'http://[::1]:8080/liftride'",
        "'[::1]:8081', 'http://[::1]:8081/liftride'",
    })
    void hostHostPortAndUrlsBecomeABaseUrl(String value, String baseUrl) {
        assertEquals(baseUrl, ServerAddress.toBaseUrl(value));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "host:0 | port must be an integer in 1..65535, got 0",
                "host:http | port must be an integer in 1..65535, got http",
                "a:b:c | has more than one ':' (IPv6 goes in [brackets])",
                ":8080 | has no valid host",
                "host/path | has no valid host",
                "http:// | is not a valid URL (Expected authority)",
                "http://host/x?y=1 | must not have a query or fragment",
                "'[::1' | has an unclosed '['",
            })
    void malformedAddressesAreRejectedSayingWhy(String value, String message) {
        assertEquals(
                message,
                assertThrows(IllegalArgumentException.class, () -> ServerAddress.toBaseUrl(value))
                        .getMessage());
    }
}

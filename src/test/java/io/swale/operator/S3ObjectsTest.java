package io.swale.operator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

class S3ObjectsTest {

    /**
     * Spec §8.6: only a store that cannot be opened is permanent. The SDK resolves credentials at the first call,
     * and a chain that failed there (STS throttled, instance metadata timed out) folds its providers' errors into
     * its message, with no cause. Was: judged "cannot be opened", a permanent error on a pod's first poll.
     */
    @Test
    void credentialsThatDidNotResolveAreTransient() {
        SdkClientException chain = SdkClientException.create("Unable to load credentials from any of the providers"
                + " in the chain AwsCredentialsProviderChain(...): [WebIdentityTokenCredentialsProvider(): Rate exceeded,"
                + " InstanceProfileCredentialsProvider(): Failed to load credentials from IMDS.]");

        ObjectProbe probe = S3Objects.judge("s3://landing/x", chain);

        assertThat(probe).isInstanceOf(ObjectProbe.Error.class);
        assertThat(((ObjectProbe.Error) probe).result()).isInstanceOf(OperatorResult.TransientError.class);
        assertThat(S3Objects.judge("s3://landing/x", NoSuchKeyException.builder().message("no").build()))
                .isInstanceOf(ObjectProbe.Absent.class);
    }
}

package io.swale.local;

import java.nio.charset.StandardCharsets;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ByteArrayResource;

/**
 * The build's AOT step: once every condition has been evaluated, writes what they read
 * ({@link ConditionInputs}) next to the generated bean definitions.
 */
final class ConditionInputsContribution implements BeanFactoryInitializationAotProcessor {

    @Override
    public BeanFactoryInitializationAotContribution processAheadOfTime(ConfigurableListableBeanFactory beanFactory) {
        ConfigurableEnvironment env = beanFactory.getBean(ConfigurableEnvironment.class);
        // written outside local mode too, so that no earlier build's inputs stay beside these definitions
        String text = ConditionInputs.format(ConditionInputs.snapshot(env,
                ConditionInputs.buildTime(beanFactory.getBeanClassLoader())));
        return (generation, code) -> generation.getGeneratedFiles().addResourceFile(ConditionInputs.RESOURCE,
                new ByteArrayResource(text.getBytes(StandardCharsets.ISO_8859_1)));
    }
}

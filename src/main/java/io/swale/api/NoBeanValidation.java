package io.swale.api;

import org.springframework.context.annotation.Configuration;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Spring MVC's validator for {@code @Valid} arguments, which no controller here has: each checks its input itself
 * and answers with a problem document. Without this, MVC builds a Bean Validation factory (Hibernate Validator,
 * about 450 classes) during the start; its jar stays only because springdoc reads its annotation types.
 */
@Configuration(proxyBeanMethods = false)
class NoBeanValidation implements WebMvcConfigurer {
    @Override
    public Validator getValidator() {
        return new Validator() {
            @Override
            public boolean supports(Class<?> type) {
                return false;
            }

            @Override
            public void validate(Object target, Errors errors) {
                // supports nothing, so never asked
            }
        };
    }
}

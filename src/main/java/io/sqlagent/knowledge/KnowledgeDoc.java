package io.sqlagent.knowledge;

import java.time.OffsetDateTime;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A table note ({@code kind = table}) or business rule ({@code rule}) from a knowledge file
 * ({@code knowledge_doc}), unique by kind and name. The generated {@code search} column stays unmapped.
 */
@Entity
@Table(name = "knowledge_doc")
public class KnowledgeDoc extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String kind;
    public String name;
    public String body;
    @Column(name = "source_file")
    public String sourceFile;
    @Column(name = "created_at", insertable = false, updatable = false)
    public OffsetDateTime createdAt;
}

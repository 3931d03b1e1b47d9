package io.swale.definition;

/** The faults of §1.7; declaration order is the table's order. */
public enum FaultKind {
    INVALID_CATCHUP("InvalidCatchup"),
    ASSET_NODE_AFTER("AssetNodeAfter"),
    ASSET_NODE_TRIGGER_RULE("AssetNodeTriggerRule"),
    TASK_NODE_CONSUMES("TaskNodeConsumes"),
    INVALID_GRAPH_NAME("InvalidGraphName"),
    INVALID_SCHEDULE("InvalidSchedule"),
    SCHEDULE_WITHOUT_PARTITION("ScheduleWithoutPartition"),
    NO_NODES("NoNodes"),
    INVALID_NODE_NAME("InvalidNodeName"),
    NAMES_TOO_LONG("NamesTooLong"),
    DUPLICATE_NODE("DuplicateNode"),
    INVALID_ASSET_NAME("InvalidAssetName"),
    DUPLICATE_ASSET("DuplicateAsset"),
    UNKNOWN_ASSET("UnknownAsset"),
    UNKNOWN_NODE("UnknownNode"),
    UNKNOWN_OPERATOR("UnknownOperator"),
    INVALID_PARAMS("InvalidParams"),
    INVALID_TEMPLATE("InvalidTemplate"),
    UNKNOWN_TEMPLATE_UPSTREAM("UnknownTemplateUpstream"),
    CYCLE("Cycle"),
    // the limits of swale.limits.*: what a definition may cost, checked before anything else
    TOO_DEEP("TooDeep"),
    TOO_MANY_NODES("TooManyNodes"),
    STRING_TOO_LONG("StringTooLong"),
    KEY_TOO_LONG("KeyTooLong"),
    INVALID_POOL_NAME("InvalidPoolName"),
    // leases on named resources (docs/resources.md)
    INVALID_LEASE("InvalidLease"),
    UNDECLARED_RESOURCE("UndeclaredResource"),
    // mapped nodes (docs/dynamic-graphs.md §3)
    INVALID_MAP("InvalidMap"),
    INVALID_MAP_LIMIT("InvalidMapLimit"),
    ITEM_OUTSIDE_MAP("ItemOutsideMap"),
    // declared growth (docs/dynamic-graphs.md §8): a growth's own shape, edges_to and nesting
    INVALID_GROWTH("InvalidGrowth");

    private final String wireName;

    FaultKind(String wireName) {
        this.wireName = wireName;
    }

    /** The spec's name, as problem lists show it. */
    public String wireName() {
        return wireName;
    }
}

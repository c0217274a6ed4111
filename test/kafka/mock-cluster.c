/*
 * A real Kafka-protocol cluster on loopback for the kafka command's tests:
 * librdkafka's mock cluster (rdkafka_mock.h, Debian's librdkafka-dev), with
 * consumer groups, offsets and rebalances. Usage: mock-cluster BROKERS
 * PARTITIONS TOPIC… (each topic with that many partitions). Prints the bootstrap list on one line, then serves until its
 * stdin closes (the test that started it ends). Its debug log of the
 * consumer groups (librdkafka's "mock" context) goes to stderr: a test waits
 * there for a rebalance to end ("… changing state Syncing -> Up") instead of
 * sleeping for as long as one might take.
 * Build: cc -o mock-cluster mock-cluster.c $(pkg-config --cflags --libs rdkafka)
 */
#include <stdio.h>
#include <stdlib.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s BROKERS PARTITIONS TOPIC...\n", argv[0]);
    return 2;
  }
  char err[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "debug", "mock", err, sizeof err) != RD_KAFKA_CONF_OK) {
    fprintf(stderr, "debug: %s\n", err);
    return 1;
  }
  /* A producer handle that only owns the cluster. */
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk) {
    fprintf(stderr, "rd_kafka_new: %s\n", err);
    return 1;
  }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, atoi(argv[1]));
  if (!mc) {
    fprintf(stderr, "cannot start the mock cluster\n");
    return 1;
  }
  /* The mock has no CreateTopics API: the topics are made here. */
  for (int i = 3; i < argc; i++) {
    if (rd_kafka_mock_topic_create(mc, argv[i], atoi(argv[2]), 1) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      fprintf(stderr, "cannot create topic %s\n", argv[i]);
      return 1;
    }
  }
  printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);
  char buf[256];
  while (fgets(buf, sizeof buf, stdin)) {
  }
  rd_kafka_mock_cluster_destroy(mc);
  rd_kafka_destroy(rk);
  return 0;
}

-- CreateIndex
CREATE INDEX `orders_trans_id_idx` ON `orders`(`trans_id`);

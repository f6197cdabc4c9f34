; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x81239 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x36331 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x524870 (>= h0 71)))
(let (($x151049 (>= h0 0)))
(let (($x526219 (and $x151049)))
(and $x526219 $x524870 (or (and (distinct true true) true) (and true (and (distinct $x36331 $x81239) true))))))))))
(check-sat)

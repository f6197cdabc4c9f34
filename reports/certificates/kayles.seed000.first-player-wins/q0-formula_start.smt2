; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x45638 (or (and (distinct true true) true) (and true (not (= (= 0 n) (= 0 (+ n 12))))))))
(let (($x82829 (>= n 71)))
(and $x82829 $x45638))))
(check-sat)
